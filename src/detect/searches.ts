import { attempts, recentSince } from './recent.ts';
import type { Signal } from './signal.ts';

const RECENT = 6;

/** Searches and commands that keep returning nothing, with nothing changed in between. */
export const emptyResult: Signal = (window) => {
  const last = window.at(-1);
  if (!last || !last.empty || last.cls === 'edit') return undefined;
  const calls = recentSince(window, (e) => e.empty === true && e.cls !== 'edit', RECENT);
  const n = attempts(calls);
  return n >= 2 ? { code: 'EMPTY_RESULT', value: n, calls, detail: 'nothing found' } : undefined;
};

/** Varied calls of one tool that all come back with the same result: the variations change nothing. */
export const sameOutcome: Signal = (window) => {
  const last = window.at(-1);
  if (!last || last.cls === 'edit') return undefined;
  const calls = recentSince(window, (e) => e.tool === last.tool && e.out === last.out, RECENT);
  const keys = new Set(calls.map((e) => e.key)).size;
  const n = attempts(calls);
  return n >= 2 && keys >= 2 ? { code: 'SAME_OUTCOME', value: n, calls, detail: 'same result each time' } : undefined;
};
