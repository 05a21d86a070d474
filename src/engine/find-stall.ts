import type { Config, SignalHit } from '../types.ts';
import type { SignalResult } from '../detect/signal.ts';
import type { JudgeModel } from '../judge/model.ts';
import { scoreSignals } from '../judge/model.ts';
import { readSignals } from '../judge/signals.ts';
import MODEL from '../judge/weights.json' with { type: 'json' };
import type { Entry } from './state.ts';

export interface Stall {
  /** The signal that names the loop in messages: the floor that fired, or the judge's strongest. */
  lead: SignalResult;
  /** Every signal that saw something, with its value, and the judge's score: the record of why. */
  signals: SignalHit[];
  /** 1 for the deterministic floor, else the judge's score. */
  strength: number;
  /** How many of the latest calls the loop covers, from its first call to now. */
  span: number;
}

function spanOf(window: readonly Entry[], lead: SignalResult): number {
  if (lead.code === 'CYCLE') return lead.calls.length * lead.value;
  const first = lead.calls.length > 0 ? window.indexOf(lead.calls[0]!) : -1;
  return first === -1 ? 1 : window.length - first;
}

export const SHIPPED_MODEL = MODEL as JudgeModel;

/** The signals as recorded in a decision: the lead first (the one the message names), the judge's score last. */
function hits(lead: SignalResult, signals: readonly SignalResult[], score: number | undefined): SignalHit[] {
  const out: SignalHit[] = [lead, ...signals.filter((s) => s !== lead)].map((s) => ({ code: s.code, value: s.value, detail: s.detail }));
  if (score !== undefined) out.push({ code: 'JUDGE', value: Math.round(score * 1000) / 1000 });
  return out;
}

/**
 * Whether the agent's latest call completes a stall. The deterministic floors are always a stall: the seed
 * rule (the same call with the same outcome `repeat` times, or one cycle of 2..maxCycle calls going round
 * `cycleRepeats` times); the same call failing `failRepeat` times with nothing changed in between
 * (OpenHands' repeating-action-error rule); and test, build or script runs failing the same way
 * `unchangedFailures` times with nothing changed in between (retry variants: `pytest -q`, `pytest tests/`,
 * `python -m pytest`); and any calls failing the same way `sameFailures` times. No healthy trajectory of
 * the labeled corpus reaches any of the last three at their defaults. Beyond the floors the judge's stuck
 * score decides.
 */
export function findStall(window: readonly Entry[], config: Config, model: JudgeModel = SHIPPED_MODEL): Stall | undefined {
  const signals = readSignals(window, config.maxCycle);
  if (signals.length === 0) return undefined;
  const cls = window.at(-1)?.cls;
  // waiting on something that runs elsewhere gets far more room than a retry, and most while it says it is still under way
  const repeat = cls === 'poll' ? config.pollRepeat * (window.at(-1)!.waiting ? 2 : 1) : config.repeat;
  const floor = signals.find(
    (s) =>
      (s.code === 'REPEAT' && s.value >= repeat) ||
      (s.code === 'CYCLE' && s.value >= config.cycleRepeats) ||
      (s.code === 'FAILING_RETRY' && s.value >= config.failRepeat) ||
      (s.code === 'NO_TREE_CHANGE' && s.value >= config.unchangedFailures) ||
      (s.code === 'SAME_FAILURE' && s.value >= config.sameFailures),
  );
  // The judge does not look at polls, nor at spawns, which have their own guard (a cap and a depth rule):
  // an orchestrator fanning out similar subagents is healthy work its near-duplicate signals would misread.
  const judged = config.judge.enabled && cls !== 'spawn' && cls !== 'poll' ? scoreSignals(signals, model) : undefined;
  // exact repeats and cycles name the loop most concretely, whichever rule declared the stall
  const concrete = signals.find((s) => s.code === 'REPEAT' && s.value >= 3) ?? signals.find((s) => s.code === 'CYCLE');
  if (floor) {
    const lead = floor.code === 'CYCLE' || !concrete ? floor : concrete;
    return { lead, signals: hits(lead, signals, judged?.score), strength: 1, span: spanOf(window, lead) };
  }
  if (!judged || judged.score < config.judge.threshold) return undefined;
  let lead = concrete ?? signals[0]!;
  if (lead.code !== 'REPEAT' && lead.code !== 'CYCLE') for (const s of signals) if ((judged.contributions[s.code] ?? 0) > (judged.contributions[lead.code] ?? 0)) lead = s;
  return { lead, signals: hits(lead, signals, judged.score), strength: judged.score, span: spanOf(window, lead) };
}
