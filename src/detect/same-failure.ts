import type { Entry } from '../types.ts';
import { attempts, recentSince, unchangedSince } from './recent.ts';
import { type Signal, sameFailureDetail, shares } from './signal.ts';

/**
 * A failed attempt at doing something: a lookup that found nothing (a read, a search) is not one, and has
 * its own signal; a call the person or a permission rule refused is one, whatever it would have done.
 */
function failedAttempt(e: Entry): boolean {
  return e.ok === false && (e.refused === true || (e.cls !== 'read' && e.cls !== 'search'));
}

/** Failures with one signature, whatever the commands, with nothing changed in between: retry variants. */
export const sameFailure: Signal = (window) => {
  const last = window.at(-1);
  if (!last || !failedAttempt(last)) return undefined;
  const calls = recentSince(window, (e) => failedAttempt(e) && e.fail === last.fail);
  const n = attempts(calls);
  return n >= 2 ? { code: 'SAME_FAILURE', value: n, calls, detail: sameFailureDetail(calls) } : undefined;
};

/**
 * Verification runs (tests, builds, scripts) failing the same way with no edit in between, anywhere in the
 * window. Where the hook could fingerprint the working tree, an unchanged tree is required too, so a fix
 * made through the shell counts as a change.
 */
export const noTreeChange: Signal = (window) => {
  const last = window.at(-1);
  if (!last || last.ok !== false || (last.cls !== 'test' && last.cls !== 'exec')) return undefined;
  const calls = recentSince(
    window,
    (e) => e.ok === false && e.fail === last.fail && (e.cls === 'test' || e.cls === 'exec'),
    window.length,
  );
  const n = attempts(calls);
  return n >= 2
    ? { code: 'NO_TREE_CHANGE', value: n, calls, detail: sameFailureDetail(calls, ', nothing changed in between') }
    : undefined;
};

/**
 * The same command failing again with nothing changed in between, whatever the message says this time. A
 * command that ran in between (an install, a script) may have changed what the next run sees: across one,
 * only the same failure again counts.
 */
export const failingRetry: Signal = (window) => {
  const last = window.at(-1);
  if (!last || !failedAttempt(last)) return undefined;
  const calls: Entry[] = [last];
  let ranBetween = false;
  // the last 24 calls, and of them the 12 nearest retries
  for (let i = window.length - 2; i >= Math.max(0, window.length - 24) && calls.length < 12; i--) {
    const e = window[i]!;
    if (!unchangedSince(e, last)) break;
    if (e.key === last.key && failedAttempt(e) && (!ranBetween || e.fail === last.fail)) calls.unshift(e);
    else if (e.ok !== false && (e.cls === 'exec' || e.cls === 'edit')) ranBetween = true;
  }
  const n = attempts(calls);
  return n >= 2 ? { code: 'FAILING_RETRY', value: n, calls, detail: 'failing each time' } : undefined;
};

/** Calls that do something: runs of a check, a build, a script. */
const RUNS = new Set<Entry['cls']>(['exec', 'test', 'other']);

/**
 * One check (a test run, a build, a reload: the same intent) failing the same way after each edit, the edits
 * never reaching the failure: a config rewritten three times and reloaded after each, the same unclosed
 * delimiter every time. Counted once per edit, so retries with nothing changed (FAILING_RETRY, NO_TREE_CHANGE)
 * add nothing here; a run of the check that passed or failed otherwise moved the failure, and ends the run.
 */
export const unmovedFailure: Signal = (window) => {
  const last = window.at(-1);
  if (!last || last.ok !== false || !RUNS.has(last.cls) || last.fail === undefined) return undefined;
  const calls: Entry[] = [last];
  let subject: string | undefined;
  for (let i = window.length - 2; i >= 0; i--) {
    const e = window[i]!;
    const thing = RUNS.has(e.cls) ? shares(e.intent, last.intent) : undefined;
    if (thing === undefined) continue;
    if (e.ok !== false || e.fail !== last.fail) break;
    subject ??= thing;
    if (e.edits !== calls[0]!.edits) calls.unshift(e);
  }
  return calls.length >= 2 && subject !== undefined
    ? { code: 'UNMOVED_FAILURE', value: calls.length, calls, detail: 'the same failure after each edit', subject }
    : undefined;
};
