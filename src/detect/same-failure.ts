import { attempts, recentSince } from './recent.ts';
import type { Signal } from './signal.ts';

/** Failures with one signature, whatever the commands, with nothing changed in between: retry variants. */
export const sameFailure: Signal = (window) => {
  const last = window.at(-1);
  if (!last || last.ok !== false) return undefined;
  const calls = recentSince(window, (e) => e.ok === false && e.fail === last.fail);
  const n = attempts(calls);
  return n >= 2 ? { code: 'SAME_FAILURE', value: n, calls, detail: 'same failure' } : undefined;
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
    (e) => e.ok === false && e.fail === last.fail && (e.cls === 'test' || e.cls === 'exec') && (e.tree === undefined || last.tree === undefined || e.tree === last.tree),
    window.length,
  );
  const n = attempts(calls);
  return n >= 2 ? { code: 'NO_TREE_CHANGE', value: n, calls, detail: 'same failure, nothing changed in between' } : undefined;
};

/** The same command failing again with nothing changed in between, whatever the message says this time. */
export const failingRetry: Signal = (window) => {
  const last = window.at(-1);
  if (!last || last.ok !== false) return undefined;
  const calls = recentSince(window, (e) => e.ok === false && e.key === last.key);
  const n = attempts(calls);
  return n >= 2 ? { code: 'FAILING_RETRY', value: n, calls, detail: 'failing each time' } : undefined;
};
