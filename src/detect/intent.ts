import type { Entry } from '../types.ts';
import { CAUSE_WORDS } from '../core/failure.ts';
import { attempts, lastBatches, RECENT, unchangedSince } from './recent.ts';
import { common, otherObjects, type Signal } from './signal.ts';

// One thing tried again and again, each time spelled otherwise: through other wrappers, shells, flags or
// quoting (`adb devices`, `cmd /c adb devices`, `powershell -Command "adb devices"`), failing for the same
// cause while the error text differs, or answering only what the task has already seen. Attempts at one
// thing that add nothing are a stall however they are spelled.

/** Calls that do something: what they act on is their intent. Lookups and edits have signals of their own. */
const DOING = new Set<Entry['cls']>(['exec', 'test', 'other']);

/**
 * An attempt at doing something, or a look that failed: a read of one file (a file that is not there, read once
 * more), a status asked of a service (`docker ps` refused the daemon's socket).
 */
function attempt(e: Entry): boolean {
  return DOING.has(e.cls) || ((e.cls === 'read' || e.cls === 'poll') && e.ok === false && !e.refused);
}
const MISSING = 'command-not-found';

/**
 * What the calls of a run are all at: the objects they act on, or, when the program itself is missing, the
 * programs; narrowed by each earlier call, so that every attempt counted acts on one same thing (`git push` in
 * `git commit && git push` and in `gh repo view x && git push`), not each on something else the latest does.
 */
function narrowed(e: Entry, last: Entry, things: readonly string[]): string[] {
  return common(things, e.cause === MISSING && last.cause === MISSING ? e.prog : e.intent);
}

/**
 * The latest failure told again an earlier one, in part or whole: the same log's tail at another length, with no
 * line the task had not seen (a longer log that goes on past the earlier failure told something).
 */
function toldAgain(last: Entry, e: Entry): boolean {
  if (last.fresh !== 0 || !last.lines || !e.lines) return false;
  const [short, long] = last.lines.length <= e.lines.length ? [last.lines, e.lines] : [e.lines, last.lines];
  return short.every((h) => long.includes(h));
}

/** An attempt that brought nothing: it failed as the latest did, or it answered only lines seen before. */
function addsNothing(e: Entry, last: Entry): boolean {
  if (e.ok === false) return last.ok !== false || e.cause === last.cause || toldAgain(last, e);
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
  let things = (last.cause === MISSING ? last.prog : last.intent) ?? [];
  const recent = lastBatches(window, RECENT);
  // A command that ran in between and said something (an install, a script) may have changed what the next
  // attempt meets: across one, only the very same failure is the same failure (a module still missing, not the
  // next missing module).
  let ranBetween = false;
  for (let i = recent.length - 1; i >= 0; i--) {
    const e = recent[i]!;
    if (!unchangedSince(e, last)) break;
    const shared = attempt(e) && !otherObjects(e, last) ? narrowed(e, last, things) : [];
    if (shared.length === 0) {
      if (DOING.has(e.cls) && e.ok !== false && (e.fresh ?? 0) > 0) ranBetween = true;
      continue;
    }
    if (ranBetween && e.ok === false && e.fail !== last.fail) break;
    if (!addsNothing(e, last) && (e.ok === false || e.empty)) break;
    calls.unshift(e);
    things = shared;
    if (!addsNothing(e, last)) break;
  }
  const n = attempts(calls);
  const subject = things[0];
  if (n < 2 || subject === undefined) return undefined;
  const detail = last.ok === false ? (CAUSE_WORDS[last.cause ?? ''] ?? 'the same error') : 'nothing new';
  return { code: 'INTENT_RETRY', value: n, calls, detail, subject };
};
