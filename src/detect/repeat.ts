import type { CallStep } from '../types.ts';
import type { Loop } from './loop.ts';
import { sameCall } from './loop.ts';

/** The seed rule's first half: the last `times` calls are the same call with the same outcome. */
export function repeatedCall(window: readonly CallStep[], times: number): Loop | undefined {
  if (times < 2 || window.length < times) return undefined;
  const last = window[window.length - 1]!;
  for (let i = window.length - times; i < window.length - 1; i++) if (!sameCall(window[i]!, last)) return undefined;
  return { calls: [last], times, signal: { code: 'REPEAT', value: times } };
}
