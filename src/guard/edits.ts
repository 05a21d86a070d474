import { applyHunks, type Hunk, parsePatch } from './patch.ts';
import { PATH_FIELDS, REPLACEMENT_FIELDS } from '../core/call-fields.ts';

// What a file tool's call does to each file it names, in the shapes the agents' tools take: a whole new
// text (Claude's Write, Gemini's write_file, Copilot's create), string replacements (Edit, MultiEdit,
// replace, str_replace, an MCP edit_file), a line insert, a patch (Codex's apply_patch, unified diffs), a
// delete or a move. What the call makes of the file can then be worked out from the file's text now.

export interface Replacement {
  old: string;
  new: string;
  all: boolean;
}

export type Change =
  | { op: 'write'; path: string; text: string }
  | { op: 'replace'; path: string; edits: Replacement[] }
  | { op: 'insert'; path: string; line: number; text: string }
  | { op: 'patch'; path: string; hunks: Hunk[] }
  | { op: 'delete'; path: string }
  /** A change whose result cannot be worked out here (a notebook cell, an edit described in prose, a move's target). */
  | { op: 'unknown'; path: string; text: string };

type Obj = Record<string, unknown>;

const FROM_FIELDS = ['source', 'old_path', 'oldPath', 'from'];
const TO_FIELDS = ['destination', 'dest', 'target', 'new_path', 'newPath', 'to'];
const TEXT_FIELDS = ['content', 'file_text', 'contents', 'text'];

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function firstString(o: Obj, fields: string[]): string | undefined {
  for (const f of fields) if (typeof o[f] === 'string') return o[f] as string;
  return undefined;
}

function allStrings(o: Obj, fields: string[]): string[] {
  const out: string[] = [];
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
  }
  return out;
}

/** All the text a call carries, for the changes that cannot be worked out. */
function callText(o: Obj): string {
  const parts: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (typeof v === 'string') parts.push(v);
    else if (v && typeof v === 'object' && depth < 4) for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(o, 0);
  return parts.join('\n');
}

function replacements(o: Obj): Replacement[] | undefined {
  const all = o.replace_all === true || (typeof o.expected_replacements === 'number' && o.expected_replacements > 1);
  for (const [a, b] of REPLACEMENT_FIELDS)
    if (typeof o[a] === 'string' && typeof o[b] === 'string')
      return [{ old: o[a] as string, new: o[b] as string, all }];
  if (!Array.isArray(o.edits)) return undefined;
  const out: Replacement[] = [];
  for (const e of o.edits as unknown[]) {
    if (!e || typeof e !== 'object') return undefined;
    const r = replacements(e as Obj);
    if (!r) return undefined;
    out.push(...r);
  }
  return out;
}

/** The changes a file tool's call makes; `name` tells deletes and moves apart from writes. */
export function changesOf(name: string, o: Obj): Change[] {
  const patchText = [str(o.patch), str(o.input), str(o.command), str(o.diff)].find(
    (t) => t !== undefined && /^(?:\*\*\* Begin Patch|\*\*\* (?:Update|Add|Delete) File: |--- )/m.test(t),
  );
  if (patchText !== undefined) {
    const out: Change[] = [];
    for (const f of parsePatch(patchText)) {
      if (f.op === 'add') out.push({ op: 'write', path: f.path, text: f.lines.join('\n') + '\n' });
      else if (f.op === 'delete') out.push({ op: 'delete', path: f.path });
      else if (f.moveTo) out.push({ op: 'delete', path: f.path }, { op: 'unknown', path: f.moveTo, text: patchText });
      else out.push({ op: 'patch', path: f.path, hunks: f.hunks });
    }
    return out;
  }
  const paths = allStrings(o, [...PATH_FIELDS, 'paths', 'files']).map((p) => p.replace(/^file:\/\//, ''));
  const from = allStrings(o, FROM_FIELDS);
  const to = allStrings(o, TO_FIELDS);
  // moves and renames take the source away and put unknown text at the target; copies only the latter
  if (from.length > 0 || to.length > 0) {
    const moves = /move|rename/i.test(name);
    return [
      ...(moves ? [...from, ...paths].map((path): Change => ({ op: 'delete', path })) : []),
      ...to.map((path): Change => ({ op: 'unknown', path, text: callText(o) })),
    ];
  }
  const subcommand = str(o.command);
  if (subcommand === 'view') return [];
  const text = firstString(o, TEXT_FIELDS);
  const edits = replacements(o);
  return paths.map((path): Change => {
    if (/delete|remove|unlink/i.test(name) && text === undefined && !edits) return { op: 'delete', path };
    if (edits) return { op: 'replace', path, edits };
    if (typeof o.insert_line === 'number' && typeof o.new_str === 'string')
      return { op: 'insert', path, line: o.insert_line, text: o.new_str };
    if (text !== undefined) return { op: 'write', path, text };
    return { op: 'unknown', path, text: callText(o) };
  });
}

/** What a file tool would make of a file; what it does when it cannot apply a change is leave the file. */
export type After = { text: string } | { none: true } | { unknown: true };

/** The file after the change, from its text now (undefined: no such file). */
export function applyChange(before: string | undefined, c: Change): After {
  switch (c.op) {
    case 'write':
      return { text: c.text };
    case 'delete':
      return { none: true };
    case 'unknown':
      return { unknown: true };
    case 'replace': {
      // an edit whose old text is not there fails, and so does the whole MultiEdit
      let text = before;
      for (const e of c.edits) {
        if (text === undefined) {
          if (e.old !== '') return { none: true };
          text = e.new;
        } else if (e.old === '' || !text.includes(e.old))
          return before === undefined ? { none: true } : { text: before };
        else text = e.all ? text.split(e.old).join(e.new) : text.replace(e.old, () => e.new);
      }
      return text === undefined ? { none: true } : { text };
    }
    case 'insert': {
      if (before === undefined) return { none: true };
      const lines = before.split('\n');
      lines.splice(Math.max(0, Math.min(c.line, lines.length)), 0, ...c.text.split('\n'));
      return { text: lines.join('\n') };
    }
    case 'patch': {
      if (before === undefined) return { unknown: true };
      const text = applyHunks(before, c.hunks);
      return text === undefined ? { unknown: true } : { text };
    }
  }
}

/** The text a change brings in: what to look at for a switch when the file's text now is not known. */
export function introducedText(c: Change): string {
  switch (c.op) {
    case 'write':
    case 'insert':
    case 'unknown':
      return c.text;
    case 'replace':
      return c.edits.map((e) => e.new).join('\n');
    case 'patch':
      return c.hunks.flatMap((h) => h.new).join('\n');
    case 'delete':
      return '';
  }
}
