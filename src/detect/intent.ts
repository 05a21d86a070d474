import type { Entry } from '../types.ts';
import { attempts, lastBatches, RECENT, unchangedSince } from './recent.ts';
import { type Signal, shares } from './signal.ts';

// One thing tried again and again, each time spelled otherwise: through other wrappers, shells, flags or
// quoting (`adb devices`, `cmd /c adb devices`, `powershell -Command "adb devices"`), failing for the same
// cause while the error text differs, or answering only what the task has already seen. Attempts at one
// thing that add nothing are a stall however they are spelled.

/** Calls that do something: what they act on is their intent. Lookups and edits have signals of their own. */
const DOING = new Set<Entry['cls']>(['exec', 'test', 'other']);

/** An attempt at doing something, or a read of one file that failed (a file that is not there, read once more). */
function attempt(e: Entry): boolean {
  return DOING.has(e.cls) || (e.cls === 'read' && e.ok === false && !e.refused);
}
const MISSING = 'command-not-found';

/** A cause in words, as the message names it. */
const CAUSE_WORDS: Record<string, string> = {
  'command-not-found': 'not found',
  'port-in-use': 'port already in use',
  refused: 'connection refused',
  duplicate: 'already exists',
  permission: 'permission denied',
  auth: 'not authorised',
  'http-404': 'not found (404)',
  'http-5xx': 'server error',
  timeout: 'timed out',
  'no-such-file': 'no such file or directory',
  bare: 'failed with no message',
};

/** What two calls are both at: the object they act on, or, when the program itself is missing, the program. */
function oneThing(e: Entry, last: Entry): string | undefined {
  if (e.cause === MISSING && last.cause === MISSING) return shares(e.prog, last.prog);
  return shares(e.intent, last.intent);
}

/** An attempt that brought nothing: it failed as the latest did, or it answered only lines seen before. */
function addsNothing(e: Entry, last: Entry): boolean {
  if (e.ok === false) return last.ok !== false || e.cause === last.cause;
  return !e.empty && e.fresh === 0;
}

/**
 * Attempts at the latest call's intent, back to the one that first told what the others repeat, with nothing
 * changed in between. An attempt that failed otherwise is news, and ends the run.
 */
export const intentRetry: Signal = (window) => {
  const last = window.at(-1);
  if (!last || !attempt(last) || !addsNothing(last, last)) return undefined;
  const calls: Entry[] = [];
  let subject: string | undefined;
  const recent = lastBatches(window, RECENT);
  // A command that ran in between and said something (an install, a script) may have changed what the next
  // attempt meets: across one, only the very same failure is the same failure (a module still missing, not the
  // next missing module).
  let ranBetween = false;
  for (let i = recent.length - 1; i >= 0; i--) {
    const e = recent[i]!;
    if (!unchangedSince(e, last)) break;
    const thing = attempt(e) ? oneThing(e, last) : undefined;
    if (thing === undefined) {
      if (DOING.has(e.cls) && e.ok !== false && (e.fresh ?? 0) > 0) ranBetween = true;
      continue;
    }
    if (ranBetween && e.ok === false && e.fail !== last.fail) break;
    if (!addsNothing(e, last) && (e.ok === false || e.empty)) break;
    calls.unshift(e);
    subject ??= thing;
    if (!addsNothing(e, last)) break;
  }
  const n = attempts(calls);
  if (n < 2 || subject === undefined) return undefined;
  const detail = last.ok === false ? (CAUSE_WORDS[last.cause ?? ''] ?? 'the same error') : 'nothing new';
  return { code: 'INTENT_RETRY', value: n, calls, detail, subject };
};
