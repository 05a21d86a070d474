import type { Signal } from './signal.ts';
import { tailRun } from './signal.ts';

/**
 * The same call, whatever it returns. A poll whose answer changes is progress, so this only matters as a
 * ceiling: an agent paging or polling the same way dozens of times is stuck even if the output moves.
 */
export const sameArgs: Signal = (window) => {
  const run = tailRun(window, (a, b) => a.key === b.key);
  return run >= 2 ? { code: 'SAME_ARGS', value: run, calls: window.slice(-run), detail: 'output changing' } : undefined;
};
