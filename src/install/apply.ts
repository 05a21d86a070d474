import { existsSync, unlinkSync } from 'node:fs';
import { lineDiff, readText, removeEmptyFolders, writeTextAtomic } from './files.ts';
import { dropReceipt, loadReceipt, original, receiptOf, saveReceipt } from './receipts.ts';

// Install and uninstall as changes to files, each with its receipt (receipts.ts): install records what
// it changed, uninstall gives exactly that back, or, in a file changed since, takes out stallguard's part.

export interface Change {
  /** Whose receipt this is: the agent installed for (files like AGENTS.md serve several), and for a line of
   *  a file that holds other installs' lines too (.git/info/exclude), that line (see excludeOwner). */
  agent: string;
  file: string;
  /** The text now; undefined when there is no file. */
  before: string | undefined;
  /** The text wanted; undefined to delete the file. */
  after: string | undefined;
}

/** The receipt owner of one install's line in .git/info/exclude, which other installs add lines to as well. */
export function excludeOwner(agent: string, path: string): string {
  return `${agent} exclude /${path}`;
}

/** A file with nothing of anyone's in it: no text, `{}`, or a hooks file's `{"version": 1}`. */
export function holdsNothing(text: string): boolean {
  return /^(\{("version":\d+)?\})?$/.test(text.replace(/\s+/g, ''));
}

/** What stallguard's part of a file is: how to take it out of a text that holds it (and nothing else). */
export type TakeOut = (text: string) => string;

/**
 * The change uninstall makes: back to the text before install when the file is as install left it;
 * otherwise stallguard's part taken out, and the file removed if install created it and nothing else
 * is left in it. `before` is the file's text now, or what an earlier change of the same uninstall leaves.
 */
export function uninstallChange(
  home: string,
  agent: string,
  file: string,
  takeOut: TakeOut,
  before: string | undefined = readText(file),
): Change {
  if (before === undefined) return { agent, file, before, after: undefined };
  const receipt = loadReceipt(home, agent, file);
  const exact = receipt ? original(receipt, before) : undefined;
  if (receipt && exact !== undefined) return { agent, file, before, after: receipt.existed ? exact : undefined };
  const rest = takeOut(before);
  return { agent, file, before, after: receipt && !receipt.existed && holdsNothing(rest) ? undefined : rest };
}

export function changes(list: Change[]): Change[] {
  return list.filter((c) => c.before !== c.after);
}

/** What --dry-run prints for a change. */
export function describeChange(c: Change, show: (file: string) => string): string {
  if (c.after === undefined) return `--- ${show(c.file)} (deleted)\n${lineDiff(c.before ?? '', '')}`;
  return `--- ${show(c.file)}${c.before === undefined ? ' (new file)' : ''}\n${lineDiff(c.before ?? '', c.after)}`;
}

/**
 * Writes an install's change and its receipt. The receipt keeps the file as it was before the first
 * install: a second install over a file nobody touched since keeps the first one's; over a file changed
 * since, what was there is that file without stallguard's part.
 */
export function writeInstall(home: string, c: Change, takeOut: TakeOut): void {
  if (c.after === undefined) throw new Error('install never deletes a file');
  const old = c.before === undefined ? undefined : loadReceipt(home, c.agent, c.file);
  const exact = old && c.before !== undefined ? original(old, c.before) : undefined;
  let was: string | undefined;
  if (old && exact !== undefined) was = old.existed ? exact : undefined;
  else if (c.before !== undefined) {
    const rest = takeOut(c.before);
    was = old && !old.existed && holdsNothing(rest) ? undefined : rest;
  }
  const created = writeTextAtomic(c.file, c.after);
  saveReceipt(home, receiptOf(c.agent, c.file, was, c.after, [...(old?.created ?? []), ...created]));
}

/** Writes an uninstall's change, drops the receipt, and removes the folders install created that are left empty. */
export function writeUninstall(home: string, c: Change): string[] {
  const receipt = loadReceipt(home, c.agent, c.file);
  if (c.after === undefined) {
    if (existsSync(c.file)) unlinkSync(c.file);
  } else if (c.after !== c.before) writeTextAtomic(c.file, c.after);
  dropReceipt(home, c.agent, c.file);
  return c.after === undefined && receipt ? removeEmptyFolders(receipt.created) : [];
}
