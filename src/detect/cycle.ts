import type { CallStep } from '../types.ts';
import type { Loop } from './loop.ts';
import { sameCall } from './loop.ts';

/**
 * The seed rule's second half: the last calls are one cycle of 2..maxPeriod calls repeated `times`
 * times, each call with the same outcome every time round (A,B,A,B,... with B's result unchanged).
 */
export function repeatedCycle(window: readonly CallStep[], times: number, maxPeriod: number): Loop | undefined {
  for (let period = 2; period <= maxPeriod; period++) {
    const n = period * times;
    if (window.length < n) break;
    const start = window.length - n;
    let ok = true;
    for (let j = start; j < window.length - period && ok; j++) ok = sameCall(window[j]!, window[j + period]!);
    // a cycle whose calls are all the same is a plain repeat, reported as such
    if (ok && !window.slice(start, start + period).every((c) => sameCall(c, window[start]!)))
      return { calls: window.slice(window.length - period), times, signal: { code: 'CYCLE', value: period } };
  }
  return undefined;
}
