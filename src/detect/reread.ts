import { attempts, recentSince } from './recent.ts';
import type { Signal } from './signal.ts';

/**
 * Reads whose content was already seen in this task, with no edit landing in between: looking again
 * without acting on it, though other calls (a failed edit, a search) come between the reads.
 */
export const reread: Signal = (window) => {
  const last = window.at(-1);
  if (!last?.reread) return undefined;
  const calls = recentSince(window, (e) => !!e.reread);
  return { code: 'REREAD', value: attempts(calls), calls, detail: 'nothing new' };
};
