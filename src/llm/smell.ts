import type { Config, Entry } from '../types.ts';
import { readSignals } from '../judge/signals.ts';
import { scoreSignals } from '../judge/model.ts';
import { SHIPPED_MODEL } from '../engine/find-stall.ts';

/**
 * Whether the cheap signals smell trouble without being sure: the judge's score is at least `llm.smell`
 * (it was below the stall threshold, or there would be a stall already). Only then is a model asked.
 */
export function smellsStuck(window: readonly Entry[], config: Config): boolean {
  if (window.length < 3) return false;
  const signals = readSignals(window, config.maxCycle);
  return signals.length > 0 && scoreSignals(signals, SHIPPED_MODEL).score >= config.llm.smell;
}
