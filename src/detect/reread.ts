import type { Signal } from './signal.ts';
import { tailRun } from './signal.ts';

/** Reads whose content was already seen in this task: looking again without acting on it. */
export const reread: Signal = (window) => {
  const last = window.at(-1);
  if (!last?.reread) return undefined;
  const run = tailRun(window, (a, b) => !!a.reread && !!b.reread);
  return { code: 'REREAD', value: run, calls: window.slice(-run), detail: 'nothing new' };
};
