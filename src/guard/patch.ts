// The files a patch changes, and what it makes of each: Codex's apply_patch format (`*** Update File:`,
// `*** Add File:`, `*** Delete File:`, `*** Move to:`) and unified diffs (`--- a/x`, `+++ b/x`, `@@`).
// Hunks are applied by their text, as Codex does: the old lines are looked for exactly, then ignoring
// trailing and then surrounding white space.

export interface Hunk {
  old: string[];
  new: string[];
}

export type FilePatch =
  | { op: 'add'; path: string; lines: string[] }
  | { op: 'delete'; path: string }
  | { op: 'update'; path: string; moveTo?: string; hunks: Hunk[] };

function hunkLines(lines: string[]): Hunk[] {
  // the empty line a patch text ends with is no line of context
  const body = lines.at(-1) === '' ? lines.slice(0, -1) : lines;
  const hunks: Hunk[] = [];
  let cur: Hunk | undefined;
  for (const line of body) {
    if (line.startsWith('@@') || line === '*** End of File') {
      if (cur && (cur.old.length > 0 || cur.new.length > 0)) hunks.push(cur);
      cur = undefined;
      continue;
    }
    if (line.startsWith('\\')) continue; // "\ No newline at end of file"
    cur ??= { old: [], new: [] };
    const mark = line[0];
    const text = line.slice(1);
    if (mark === '-') cur.old.push(text);
    else if (mark === '+') cur.new.push(text);
    else {
      // a context line; an empty line in a patch is empty context
      cur.old.push(mark === ' ' ? text : line);
      cur.new.push(mark === ' ' ? text : line);
    }
  }
  if (cur && (cur.old.length > 0 || cur.new.length > 0)) hunks.push(cur);
  return hunks;
}

function codexPatch(text: string): FilePatch[] {
  const out: FilePatch[] = [];
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  for (let i = 0; i < lines.length; i++) {
    const m = /^\*\*\* (Update|Add|Delete) File: (.+)$/.exec(lines[i]!);
    if (!m) continue;
    const path = m[2]!.trim();
    let j = i + 1;
    let moveTo: string | undefined;
    const move = /^\*\*\* Move to: (.+)$/.exec(lines[j] ?? '');
    if (move) (moveTo = move[1]!.trim()), j++;
    const body: string[] = [];
    for (; j < lines.length && !/^\*\*\* (?:Update File|Add File|Delete File|End Patch)/.test(lines[j]!); j++)
      body.push(lines[j]!);
    i = j - 1;
    if (m[1] === 'Delete') out.push({ op: 'delete', path });
    else if (m[1] === 'Add')
      out.push({ op: 'add', path, lines: body.filter((l) => l.startsWith('+')).map((l) => l.slice(1)) });
    else out.push({ op: 'update', path, ...(moveTo ? { moveTo } : {}), hunks: hunkLines(body) });
  }
  return out;
}

function diffPath(header: string): string | undefined {
  const p = header.replace(/\t.*$/, '').trim();
  return p === '/dev/null' ? undefined : p.replace(/^[ab]\//, '');
}

function unifiedDiff(text: string): FilePatch[] {
  const out: FilePatch[] = [];
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith('--- ') || !lines[i + 1]!.startsWith('+++ ')) continue;
    const from = diffPath(lines[i]!.slice(4));
    const to = diffPath(lines[i + 1]!.slice(4));
    let j = i + 2;
    const body: string[] = [];
    for (
      ;
      j < lines.length &&
      !(lines[j]!.startsWith('--- ') && lines[j + 1]?.startsWith('+++ ')) &&
      !lines[j]!.startsWith('diff ');
      j++
    )
      body.push(lines[j]!);
    i = j - 1;
    const hunks = hunkLines(body);
    if (!to && from) out.push({ op: 'delete', path: from });
    else if (to && !from) out.push({ op: 'add', path: to, lines: hunks.flatMap((h) => h.new) });
    else if (to && from) out.push({ op: 'update', path: from, ...(to !== from ? { moveTo: to } : {}), hunks });
  }
  return out;
}

/** The files a patch text changes; none when it is not a patch. */
export function parsePatch(text: string): FilePatch[] {
  return text.includes('*** Begin Patch') || /^\*\*\* (?:Update|Add|Delete) File: /m.test(text)
    ? codexPatch(text)
    : unifiedDiff(text);
}

function find(lines: string[], old: string[], from: number): number {
  const tries: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim()];
  for (const norm of tries) {
    for (let i = from; i + old.length <= lines.length; i++) {
      let ok = true;
      for (let k = 0; k < old.length && ok; k++) ok = norm(lines[i + k]!) === norm(old[k]!);
      if (ok) return i;
    }
  }
  return -1;
}

/**
 * The text after the hunks, or undefined where one does not apply (the agent's tool fails, or applies it differently).
 */
export function applyHunks(text: string, hunks: Hunk[]): string | undefined {
  const trailing = text.endsWith('\n');
  const lines = (trailing ? text.slice(0, -1) : text).split('\n');
  let at = 0;
  for (const h of hunks) {
    if (h.old.length === 0) {
      lines.push(...h.new);
      at = lines.length;
      continue;
    }
    const i = find(lines, h.old, at);
    if (i === -1) return undefined;
    lines.splice(i, h.old.length, ...h.new);
    at = i + h.new.length;
  }
  return lines.join('\n') + (trailing ? '\n' : '');
}
