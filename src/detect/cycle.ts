import type { Entry } from '../types.ts';
import { attempts } from './recent.ts';
import { type SignalResult, sameCall, sameFailureDetail } from './signal.ts';

/**
 * A cycle of 2..maxPeriod calls (A,B,A,B,... or A,B,C,A,B,C,...) going round with unchanged outcomes.
 * The value is the number of full rounds at the end of the window; the seed rule stalls at five.
 */
export function cycle(window: readonly Entry[], maxPeriod = 5): SignalResult | undefined {
  let best: SignalResult | undefined;
  for (let period = 2; period <= maxPeriod; period++) {
    if (window.length < period * 2) break;
    let matched = 0;
    for (let j = window.length - 1 - period; j >= 0 && sameCall(window[j]!, window[j + period]!); j--) matched++;
    const round = window.slice(window.length - period);
    // a round inside one parallel batch is not a round trip: count at most one round per batch it spans
    const rounds = Math.min(
      Math.floor((matched + period) / period),
      attempts(window.slice(window.length - matched - period)),
    );
    // a "cycle" whose calls are all the same is a plain repeat, reported as such
    if (rounds < 2 || round.every((c) => sameCall(c, round[0]!))) continue;
    if (!best || rounds > best.value)
      best = {
        code: 'CYCLE',
        value: rounds,
        calls: round,
        detail: round.some((c) => c.ok === false) ? sameFailureDetail(round, ' each round') : 'same results each round',
      };
  }
  return best;
}
