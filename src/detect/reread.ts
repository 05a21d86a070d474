import { attempts } from './recent.ts';
import type { Signal } from './signal.ts';
import { tailRun } from './signal.ts';

/** Reads whose content was already seen in this task: looking again without acting on it. */
export const reread: Signal = (window) => {
  const last = window.at(-1);
  if (!last?.reread) return undefined;
  const run = tailRun(window, (a, b) => !!a.reread && !!b.reread);
  const calls = window.slice(-run);
  return { code: 'REREAD', value: attempts(calls), calls, detail: 'nothing new' };
};
