import type { Entry } from '../types.ts';
import type { SignalResult } from '../detect/signal.ts';
import { repeat } from '../detect/repeat.ts';
import { cycle } from '../detect/cycle.ts';
import { nearDuplicate } from '../detect/near-duplicate.ts';
import { failingRetry, noTreeChange, sameFailure, unmovedFailure } from '../detect/same-failure.ts';
import { editRejected, oscillation, repeatedEdit, unseenEdit } from '../detect/edits.ts';
import { emptyResult, fruitless, hunt, sameOutcome } from '../detect/searches.ts';
import { intentRetry } from '../detect/intent.ts';
import { reread } from '../detect/reread.ts';
import { malformed } from '../detect/malformed.ts';

const SIGNALS = [
  repeat,
  nearDuplicate,
  sameFailure,
  failingRetry,
  noTreeChange,
  unmovedFailure,
  editRejected,
  repeatedEdit,
  oscillation,
  unseenEdit,
  emptyResult,
  fruitless,
  hunt,
  intentRetry,
  sameOutcome,
  reread,
  malformed,
];

/** Every signal that sees something at the latest call of the window. */
export function readSignals(window: readonly Entry[], maxCycle: number): SignalResult[] {
  const out: SignalResult[] = [];
  for (const signal of SIGNALS) {
    const r = signal(window);
    if (r) out.push(r);
  }
  const c = cycle(window, maxCycle);
  if (c) out.push(c);
  return out;
}
