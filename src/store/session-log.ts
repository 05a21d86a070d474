import {
  chmodSync,
  closeSync,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import type { AgentName, Config, Decision, Observation } from '../types.ts';
import { ALLOW } from '../types.ts';
import { reduce } from '../engine/engine.ts';
import { initialState, isState, type State } from '../engine/state.ts';

// One append-only JSONL file per session is both the state and the ledger. Claude Code runs hooks in
// parallel, so a read-modify-write of a state file would lose updates; instead every hook process appends
// its observation with one O_APPEND write (atomic on a local filesystem), then derives the state by
// folding the observations that precede its own line. The file order is the one true order, every process
// sees a consistent prefix, and a process killed half-way leaves at worst a fragment of its own line, which
// readers skip (the line appended after it is recovered whole, see parseLine). Checkpoints of the folded
// state, written every CHECKPOINT_EVERY observations, keep each call's work bounded however long the
// session runs (a call about to run is often recorded without a fold: segments.ts's holdPath). There are no
// locks, so there is nothing a killed process can leave held. Past a size the
// log goes on in a new segment that starts from a checkpoint (segments.ts), so a fold never reads far.

export const CHECKPOINT_EVERY = 24;
const FIRST_READ = 64 * 1024;
/** Past this size a segment is sealed and the session goes on in the next one (segments.ts). */
export const SEGMENT_BYTES = 1 << 20;

export type LogLine =
  | { t: 'm'; session: string; agent?: AgentName; cwd?: string; time: number }
  | { t: 'o'; id: string; o: Observation }
  | { t: 'd'; id: string; d: Decision; mode: string; time?: number }
  /** A checkpoint: the state after the observation `after`, or, with `after: ''`, at the head of a segment. */
  | { t: 'c'; after: string; s: State }
  /**
   * The seal: observations after the first seal of a segment belong to the next one (they are appended there again).
   */
  | { t: 's'; next: number };

const ID_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * 48 random bits, enough to tell apart the lines of one session. Math.random, seeded per process from the
 * system's entropy, spares the hook the cost of loading node:crypto.
 */
export function newLineId(): string {
  let id = '';
  for (let i = 0; i < 8; i++) id += ID_CHARS[Math.floor(Math.random() * 64)];
  return id;
}

function ensureDir(file: string): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
}

/** Writes all of `bytes` with one write(2), or throws: a short write (a full disk) leaves a fragment readers skip. */
function writeWhole(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  const n = writeSync(fd, bytes);
  if (n !== bytes.length)
    throw Object.assign(new Error(`short write: ${n} of ${bytes.length} bytes (is the disk full?)`), {
      code: 'ENOSPC',
    });
}

/** Appends one JSON line with one write(2): the session log's lines, and the verdicts kept beside it. */
export function appendLine(file: string, line: LogLine | object): void {
  appendLines(file, [line]);
}

/** Appends JSON lines with one write(2), so that no other process's line lands between them. */
export function appendLines(file: string, lines: readonly (LogLine | object)[]): void {
  ensureDir(file);
  const fd = openSync(file, 'a', 0o600);
  try {
    writeWhole(fd, lines.map((l) => JSON.stringify(l) + '\n').join(''));
  } finally {
    closeSync(fd);
  }
}

/** Writes the meta line of a new session file; does nothing when the file already exists. */
export function createSessionFile(file: string, meta: Extract<LogLine, { t: 'm' }>): void {
  // nearly always there already: asked first, since the exclusive create's EEXIST is an error built and thrown
  if (existsSync(file)) return;
  ensureDir(file);
  let fd: number;
  try {
    fd = openSync(file, 'ax', 0o600); // O_APPEND too: another process may append before our meta line lands
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw e;
  }
  try {
    writeWhole(fd, JSON.stringify(meta) + '\n');
  } finally {
    closeSync(fd);
  }
  // the sessions folder is stallguard's own: one made by hand or by an older version is tightened, once
  // per session (STALLGUARD_HOME itself may be a folder the person shares, and is left as it is)
  const dir = dirname(file);
  if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
}

/**
 * The last `bytes` of a file as whole lines, and at least everything from `cover` on; `fromStart` when
 * the whole file was read.
 */
function readTail(
  file: string,
  bytes: number,
  cover = Infinity,
): { lines: string[]; fromStart: boolean; size: number } {
  const { buf, start, size } = tailBytes(file, bytes, cover);
  const lines = buf.toString('utf8').split('\n');
  if (start > 0) lines.shift(); // a partial line
  return { lines: lines.filter((l) => l.length > 0), fromStart: start === 0, size };
}

/** The bytes of a file from the last `bytes`, or from `cover` if that is earlier, and where they start. */
function tailBytes(file: string, bytes: number, cover: number): { buf: Buffer; start: number; size: number } {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, Math.min(size - bytes, cover));
    const buf = Buffer.alloc(size - start);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return { buf: buf.subarray(0, got), start, size };
  } finally {
    closeSync(fd);
  }
}

/**
 * Where the observation `id`, just appended, sits against the segment's seal, without parsing a line: after it
 * (`late`, to be appended again in the next segment), or `kept`. Undefined when it is for a fold to say: the
 * bytes a fold reads do not hold the line, or the segment is past its size and due the seal a fold writes. A
 * seal is written whole by one process, and no value holds its text (JSON escapes the quotes).
 */
export function placeAgainstSeal(file: string, id: string, segmentBytes = SEGMENT_BYTES): 'kept' | 'late' | undefined {
  const { buf, size } = tailBytes(file, FIRST_READ, segmentBytes);
  const mine = buf.lastIndexOf(`{"t":"o","id":${JSON.stringify(id)},`);
  if (mine === -1) return undefined;
  const seal = buf.indexOf('{"t":"s","next":');
  if (seal !== -1 && seal < mine) return 'late';
  return size > segmentBytes ? undefined : 'kept';
}

function parseWhole(text: string): LogLine | undefined {
  try {
    const v = JSON.parse(text) as LogLine;
    return v && typeof v === 'object' && typeof v.t === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Where every line starts: JSON.stringify escapes quotes inside strings, so this never occurs within a value. */
const LINE_START = '{"t":"';

/**
 * One line of the log. A writer killed in the middle of its write(2) leaves a fragment with no newline,
 * and the next append lands right after it, on the same physical line: the whole line that follows the
 * fragment is recovered, so a crash costs only the dead writer's own line.
 */
export function parseLine(text: string): LogLine | undefined {
  const whole = parseWhole(text);
  if (whole) return whole;
  for (let at = text.indexOf(LINE_START, 1); at !== -1; at = text.indexOf(LINE_START, at + 1)) {
    const line = parseWhole(text.slice(at));
    if (line) return line;
  }
  return undefined;
}

export interface Folded {
  state: State;
  decision: Decision;
  /** Observations folded to reach this decision (from the checkpoint used, or from the start). */
  folded: number;
}

/** What a fold of one segment found: the fold, or that the observation came after the segment's seal. */
export type SegmentFold = (Folded & { sealed: boolean; size: number }) | { late: true };

/**
 * Folds one segment through the line that `target` picks among its parsed lines (an index, or -1 when
 * the lines read do not reach it), from the nearest usable checkpoint before it. The line is an
 * observation, or the segment's head checkpoint: then the state is the head's, and nothing is folded. The
 * read always covers everything past `segmentBytes`, where every seal lies, so a line after the first seal
 * is known as late.
 * It reads more of the segment only when the tail does not reach back far enough, and never starts from
 * an empty state unless it read the segment from its start.
 */
export function foldSegment(
  file: string,
  config: Config,
  target: (parsed: (LogLine | undefined)[]) => number,
  segmentBytes = SEGMENT_BYTES,
  /** Observations whose decisions the caller wants, filled in: the fold starts before the first of them. */
  wanted?: Map<string, Decision>,
): SegmentFold {
  for (let bytes = FIRST_READ; ; bytes *= 4) {
    const { lines, fromStart, size } = readTail(file, bytes, segmentBytes);
    const parsed = lines.map(parseLine);
    const mine = target(parsed);
    const seal = parsed.findIndex((l) => l?.t === 's');
    if (mine === -1) {
      if (fromStart) {
        if (seal !== -1) return { late: true }; // written into a segment already sealed and compacted
        throw new Error(`the line to fold through is not in ${file}`);
      }
      continue;
    }
    if (seal !== -1 && seal < mine) return { late: true };
    const position = new Map<string, number>();
    for (const [i, l] of parsed.entries()) if (l?.t === 'o' && i <= mine) position.set(l.id, i);
    // a checkpoint another process made after one of the wanted observations would skip its decision
    let first = mine;
    if (wanted) for (const id of wanted.keys()) first = Math.min(first, position.get(id) ?? mine);
    let from = -1;
    let state: State | undefined;
    parsed.forEach((l, i) => {
      if (l?.t !== 'c' || !isState(l.s)) return;
      const at = l.after === '' ? i : position.get(l.after);
      if (at !== undefined && (at < first || (at === first && l.after === '')) && at > from) {
        from = at;
        state = l.s;
      }
    });
    if (!state && !fromStart) continue;
    let current = state ?? initialState();
    let decision: Decision = ALLOW;
    let folded = 0;
    for (let i = from + 1; i <= mine; i++) {
      const l = parsed[i];
      if (l?.t !== 'o' || !l.o || typeof l.o !== 'object' || !l.o.step || !l.o.agent) continue;
      const r = reduce(current, l.o, config);
      current = r.state;
      decision = r.decision;
      if (wanted?.has(l.id)) wanted.set(l.id, r.decision);
      folded++;
    }
    return { state: current, decision, folded, sealed: seal !== -1, size };
  }
}

/** The state just before the observation `id` of one segment, folded through `id`. */
export function foldThrough(file: string, id: string, config: Config): Folded {
  const r = foldSegment(file, config, (parsed) => parsed.findIndex((l) => l?.t === 'o' && l.id === id), Infinity);
  if ('late' in r) throw new Error(`observation ${id} is not in ${file}`);
  return r;
}
