import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

// What install changed in a file, kept in STALLGUARD_HOME/installs so that uninstall gives back exactly
// what was there, byte for byte: a file that held only `{}`, a trailing newline, a file that did not
// exist, the folders install created for it. Not a copy of the file (a settings file may hold keys):
// only the digest of what install wrote and the one stretch of the old text that install replaced, so
// the old text is rebuilt from the file as long as nobody changed it since. When somebody did, uninstall
// takes out stallguard's part alone, as it always could.

export interface Receipt {
  agent: string;
  file: string;
  /** The file existed before install. */
  existed: boolean;
  /** sha256 of the text install left. */
  wrote: string;
  /** Characters at the start and at the end that install left as they were. */
  head: number;
  tail: number;
  /** What stood between them before install. */
  was: string;
  /** Folders install created for the file, outermost first. */
  created: string[];
}

const DIR = 'installs';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The receipt of turning `before` (undefined: no file) into `after`. */
export function receiptOf(
  agent: string,
  file: string,
  before: string | undefined,
  after: string,
  created: string[],
): Receipt {
  const old = before ?? '';
  let head = 0;
  while (head < old.length && head < after.length && old[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head &&
    tail < after.length - head &&
    old[old.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  return {
    agent,
    file,
    existed: before !== undefined,
    wrote: sha(after),
    head,
    tail,
    was: old.slice(head, old.length - tail),
    created,
  };
}

/** The text before install, when `current` is still what install left; undefined when it was changed since. */
export function original(r: Receipt, current: string): string | undefined {
  if (sha(current) !== r.wrote) return undefined;
  return current.slice(0, r.head) + r.was + current.slice(current.length - r.tail);
}

function receiptFile(home: string, agent: string, file: string): string {
  return join(home, DIR, `${sha(`${agent}\0${file}`).slice(0, 24)}.json`);
}

export function loadReceipt(home: string, agent: string, file: string): Receipt | undefined {
  try {
    const r = JSON.parse(readFileSync(receiptFile(home, agent, file), 'utf8')) as Receipt;
    return r.file === file &&
      r.agent === agent &&
      typeof r.wrote === 'string' &&
      typeof r.was === 'string' &&
      Array.isArray(r.created)
      ? r
      : undefined;
  } catch {
    return undefined; // none, or unreadable: uninstall falls back to taking out stallguard's part
  }
}

export function saveReceipt(home: string, r: Receipt): void {
  const file = receiptFile(home, r.agent, r.file);
  mkdirSync(join(home, DIR), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(r) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
}

export function dropReceipt(home: string, agent: string, file: string): void {
  rmSync(receiptFile(home, agent, file), { force: true });
}
