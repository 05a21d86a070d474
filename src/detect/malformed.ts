import { attempts, recentSince } from './recent.ts';
import type { Signal } from './signal.ts';

/** Calls the tool could not even parse, again and again. */
export const malformed: Signal = (window) => {
  const last = window.at(-1);
  if (!last?.malformed) return undefined;
  const calls = recentSince(window, (e) => e.malformed === true);
  const n = attempts(calls);
  return n >= 2 ? { code: 'MALFORMED', value: n, calls, detail: 'malformed each time' } : undefined;
};
