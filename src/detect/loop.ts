import type { CallStep, SignalHit } from '../types.ts';

/** A loop found in a window: the calls of one round, and how many rounds were seen. */
export interface Loop {
  calls: CallStep[];
  times: number;
  signal: SignalHit;
  /** What stayed the same, when it is not the plain outcome ("same F821 error"). */
  detail?: string;
}

/** The same call with the same outcome: only then is a repeat a repeat; a changed outcome is progress. */
export function sameCall(a: CallStep, b: CallStep): boolean {
  return a.key === b.key && a.out === b.out;
}
