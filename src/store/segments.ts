import {
  existsSync,
  linkSync,
  openSync,
  closeSync,
  fstatSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import type { Config, Decision, Observation } from '../types.ts';
import { ALLOW } from '../types.ts';
import { fileLines } from '../readers/lines.ts';
import { allowedUnlessHeld, holdsRefusal } from '../engine/engine.ts';
import { agentIn } from '../engine/state.ts';
import { safeName } from './paths.ts';
import {
  appendLine,
  appendLines,
  CHECKPOINT_EVERY,
  createSessionFile,
  type Folded,
  foldSegment,
  type LogLine,
  newLineId,
  parseLine,
  placeAgainstSeal,
  SEGMENT_BYTES,
} from './session-log.ts';

// A session's log in segments, so that it stays small to read however long the session runs. Segment 0 is
// sessions/<name>.jsonl, segment g is <name>.<g>.jsonl, and <name>.seg names the latest (a hint: a newer
// segment is found by looking). Past SEGMENT_BYTES, a writer appends a seal line; the observations before
// the first seal are the segment's, and a writer whose line landed after it appends the same line again in
// the next segment. The next segment starts whole, made aside and linked into place, with the meta line
// and a checkpoint of the state at the seal at its head: every process that finds it missing makes the
// same one and the first link wins. So a fold never has to start from an empty state, and no update is
// lost, still without locks. A segment two seals back, which no live hook still writes, is compacted:
// its checkpoints (all but the head) go, its observations and decisions stay, for the ledger's readers.

export function segmentPath(file: string, g: number): string {
  return g === 0 ? file : file.replace(/\.jsonl$/, `.${g}.jsonl`);
}

function pointerPath(file: string): string {
  return file.replace(/\.jsonl$/, '.seg');
}

/** Whether a file name in the sessions folder is a session's first segment (the one named after it). */
export function isSessionName(name: string): boolean {
  return name.endsWith('.jsonl') && !name.slice(0, -'.jsonl'.length).includes('.');
}

/** The segments a session has, oldest first. */
export function sessionSegments(file: string): string[] {
  const out = [file];
  while (existsSync(segmentPath(file, out.length))) out.push(segmentPath(file, out.length));
  return out;
}

function currentSegment(file: string): number {
  // most sessions never rotate: one look, and no pointer file to fail to read
  if (!existsSync(segmentPath(file, 1))) return 0;
  let g = 0;
  try {
    g = Math.max(0, Number.parseInt(readFileSync(pointerPath(file), 'utf8'), 10) || 0);
  } catch {
    /* a session that never rotated */
  }
  while (g > 0 && !existsSync(segmentPath(file, g))) g--; // segments removed by hand
  while (existsSync(segmentPath(file, g + 1))) g++;
  return g;
}

/** Creates `file` with `text` in it, whole, unless it exists: made aside and linked, so no reader sees it half made. */
function createWhole(file: string, text: string): boolean {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  try {
    linkSync(tmp, file);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') throw e;
    // a filesystem without hard links: create and write at once (a racing append may land before the head)
    let fd: number;
    try {
      fd = openSync(file, 'ax', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw err;
    }
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    return true;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Makes sure segment g+1 exists, its head the state at segment g's first seal; returns g+1. */
function startNext(
  file: string,
  g: number,
  config: Config,
  meta: Extract<LogLine, { t: 'm' }>,
  segmentBytes: number,
): number {
  const next = segmentPath(file, g + 1);
  if (existsSync(next)) return g + 1;
  const atSeal = foldSegment(
    segmentPath(file, g),
    config,
    (parsed) => parsed.findIndex((l) => l?.t === 's'),
    segmentBytes,
  );
  if ('late' in atSeal) throw new Error(`segment ${g} of ${file} has no seal to start the next one from`);
  const head = [
    { ...meta, time: Date.now() },
    { t: 'c', after: '', s: atSeal.state },
  ]
    .map((l) => JSON.stringify(l) + '\n')
    .join('');
  if (createWhole(next, head)) {
    replaceWhole(pointerPath(file), String(g + 1));
    if (g >= 1) compactSegment(segmentPath(file, g - 1));
  }
  return g + 1;
}

/**
 * Rewrites a sealed segment without what only live hooks needed: the checkpoints but its head, the lines
 * after its seal (they are in the next segment), unreadable lines. A live segment is left alone.
 */
function compactSegment(seg: string): void {
  const kept: string[] = [];
  let sealed = false;
  let meta = false;
  for (const text of fileLines(seg)) {
    const l = text ? parseLine(text) : undefined;
    if (!l) continue;
    const keep =
      l.t === 'm' ? !meta : l.t === 'c' ? l.after === '' && !sealed : l.t === 's' || l.t === 'o' ? !sealed : true;
    if (keep) kept.push(JSON.stringify(l));
    if (l.t === 'm') meta = true;
    if (l.t === 's') sealed = true;
  }
  if (!sealed) return;
  replaceWhole(seg, kept.join('\n') + '\n');
}

/** Replaces `file` with `text` in one rename, private to its owner: a reader sees the old file or the new one. */
function replaceWhole(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, file);
}

/** How far back from a session's end the calls of its open batches are looked for. */
const RECENT_BYTES = 256 * 1024;

/**
 * Which of `calls` (Observation.call) the session's latest observations name: a look at the bytes of its
 * tail, no fold, so that the end of a batch does not work out again the outcome of a call observed on its own
 * (a failure). A call found nowhere is observed; should it have been after all, the engine skips it.
 */
export function recentlyObserved(file: string, calls: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (calls.length === 0 || !existsSync(file)) return found;
  const fd = openSync(segmentPath(file, currentSegment(file)), 'r');
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.allocUnsafe(Math.min(size, RECENT_BYTES));
    const n = readSync(fd, buf, 0, buf.length, size - buf.length);
    const tail = buf.subarray(0, n);
    for (const c of calls) if (tail.includes(`"call":${JSON.stringify(c)}`)) found.add(c);
  } finally {
    closeSync(fd);
  }
  return found;
}

/**
 * The file whose presence says that an agent of the session may hold a refusal (engine's holdsRefusal): kept
 * by every fold of the agent's observations, so that a call about to run is folded only where it may be refused.
 * One left behind (a task that started afresh, an agent that ended) costs only that fold.
 */
export function holdPath(file: string, agent: string): string {
  return file.replace(/\.jsonl$/, `.${safeName(agent)}.hold`);
}

function markHold(file: string, agent: string, held: boolean): void {
  const path = holdPath(file, agent);
  if (held === existsSync(path)) return;
  if (held) writeFileSync(path, '', { mode: 0o600 });
  else rmSync(path, { force: true });
}

/** The hook's whole use of the store: record the observation, decide it, checkpoint now and then, seal past a size. */
export function observeInLog(
  file: string,
  obs: Observation,
  config: Config,
  meta: Extract<LogLine, { t: 'm' }>,
  segmentBytes = SEGMENT_BYTES,
): Omit<Folded, 'state'> & { state?: Folded['state']; id: string; file: string } {
  const r = observeAllInLog(file, [obs], config, meta, segmentBytes);
  return { state: r.state, decision: r.decisions[0]!, folded: r.folded, id: r.ids[0]!, file: r.file };
}

/**
 * Several observations of one event at once (the outcomes a batch's end lists, then the end): written in
 * one write, folded once, each with its decision, and the state after them, unless they were a call about to
 * run that was allowed without a fold.
 */
export function observeAllInLog(
  file: string,
  list: readonly Observation[],
  config: Config,
  meta: Extract<LogLine, { t: 'm' }>,
  segmentBytes = SEGMENT_BYTES,
): { state?: Folded['state']; decisions: Decision[]; folded: number; ids: string[]; file: string } {
  createSessionFile(file, meta);
  // a call about to run, of an agent that holds no refusal, is allowed: recorded, and folded by the next process
  const quick = list.length === 1 && allowedUnlessHeld(list[0]!) && !existsSync(holdPath(file, list[0]!.agent.id));
  const ids = list.map(() => newLineId());
  const last = ids.at(-1)!;
  let g = currentSegment(file);
  // a line lands after a seal only while a rotation is under way; twice in a row is already unlikely
  for (let tries = 0; tries < 8; tries++) {
    const seg = segmentPath(file, g);
    appendLines(
      seg,
      list.map((o, i) => ({ t: 'o', id: ids[i]!, o })),
    );
    if (quick) {
      const place = placeAgainstSeal(seg, last, segmentBytes);
      if (place === 'late') {
        g = startNext(file, g, config, meta, segmentBytes);
        continue;
      }
      if (place === 'kept') return { decisions: [ALLOW], folded: 0, ids, file: seg };
    }
    const wanted = new Map(ids.map((id) => [id, ALLOW]));
    const r = foldSegment(
      seg,
      config,
      (parsed) => parsed.findIndex((l) => l?.t === 'o' && l.id === last),
      segmentBytes,
      wanted,
    );
    if ('late' in r) {
      g = startNext(file, g, config, meta, segmentBytes);
      continue;
    }
    if (r.folded >= CHECKPOINT_EVERY) appendLine(seg, { t: 'c', after: last, s: r.state });
    for (const agent of new Set(list.map((o) => o.agent.id)))
      markHold(file, agent, holdsRefusal(agentIn(r.state, agent)));
    if (!r.sealed && r.size > segmentBytes) {
      appendLine(seg, { t: 's', next: g + 1 });
      startNext(file, g, config, meta, segmentBytes);
    }
    return { state: r.state, decisions: ids.map((id) => wanted.get(id)!), folded: r.folded, ids, file: seg };
  }
  throw new Error(`${file}: the observation landed after a seal 8 times in a row`);
}

/**
 * A session's log as its readers see it (status, report, export): every segment in order, each
 * observation once (none after a seal), one meta line; undefined for a line that cannot be read.
 */
export function* sessionLog(file: string): Generator<LogLine | undefined> {
  for (const [g, seg] of sessionSegments(file).entries()) {
    let sealed = false;
    for (const text of fileLines(seg)) {
      if (!text.trim()) continue;
      const l = parseLine(text);
      if (l?.t === 's') sealed = true;
      if ((l?.t === 'o' && sealed) || (l?.t === 'm' && g > 0)) continue;
      yield l;
    }
  }
}

/** When a session last changed: its latest segment's modification time. */
export function sessionMtime(file: string): number {
  return statSync(sessionSegments(file).at(-1)!).mtimeMs;
}

/**
 * The state after a session's latest observation, as the next hook would fold it (for the ledger's tools and
 * tests). A segment just opened by a seal may hold nothing but its head, the state at the seal: that is the
 * latest state then, and nothing was decided in the segment yet.
 */
export function foldLatest(file: string, config: Config): Folded {
  const seg = sessionSegments(file).at(-1)!;
  const r = foldSegment(seg, config, (parsed) => {
    const last = parsed.findLastIndex((l) => l?.t === 'o');
    return last !== -1 ? last : parsed.findIndex((l) => l?.t === 'c' && l.after === '');
  });
  if ('late' in r) throw new Error(`${seg} ends after its seal: a rotation is under way`);
  return r;
}
