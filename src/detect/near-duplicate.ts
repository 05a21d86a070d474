import { similarity } from '../core/sketch.ts';
import { attempts, recentSince } from './recent.ts';
import { describeOutcome, outcomeClass, type Signal } from './signal.ts';

const SIMILAR = 0.5;

/**
 * The same tool with near-identical arguments and the same kind of outcome, with nothing changed in
 * between: grep variants that keep finding nothing, an edit resubmitted with cosmetic changes and rejected
 * alike, `pytest -q` / `pytest tests/` failing the same way.
 */
export const nearDuplicate: Signal = (window) => {
  const calls = recentSince(window, (e, last) => e.tool === last.tool && outcomeClass(e) === outcomeClass(last) && similarity(e.sim ?? [], last.sim ?? []) >= SIMILAR);
  const n = attempts(calls);
  return n >= 2 ? { code: 'NEAR_DUPLICATE', value: n, calls, detail: describeOutcome(window.at(-1)!) } : undefined;
};
