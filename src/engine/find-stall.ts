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
 * Whether the agent's latest call completes a stall. The deterministic floor (the seed rule: the same call
 * with the same outcome `repeat` times, or one cycle of 2..maxCycle calls going round `cycleRepeats` times)
 * is always a stall; beyond it the judge's stuck score decides.
 */
export function findStall(window: readonly Entry[], config: Config, model: JudgeModel = SHIPPED_MODEL): Stall | undefined {
  const signals = readSignals(window, config.maxCycle);
  if (signals.length === 0) return undefined;
  const cls = window.at(-1)?.cls;
  // waiting on something that runs elsewhere gets far more room than a retry
  const repeat = cls === 'poll' ? config.pollRepeat : config.repeat;
  const floor = signals.find((s) => (s.code === 'REPEAT' && s.value >= repeat) || (s.code === 'CYCLE' && s.value >= config.cycleRepeats));
  // The judge does not look at polls, nor at spawns, which have their own guard (a cap and a depth rule):
  // an orchestrator fanning out similar subagents is healthy work its near-duplicate signals would misread.
  const judged = config.judge.enabled && cls !== 'spawn' && cls !== 'poll' ? scoreSignals(signals, model) : undefined;
  if (floor) return { lead: floor, signals: hits(floor, signals, judged?.score), strength: 1, span: spanOf(window, floor) };
  if (!judged || judged.score < config.judge.threshold) return undefined;
  // exact repeats and cycles name the loop most concretely; otherwise the judge's strongest signal does
  let lead = signals.find((s) => s.code === 'REPEAT' && s.value >= 3) ?? signals.find((s) => s.code === 'CYCLE') ?? signals[0]!;
  if (lead.code !== 'REPEAT' && lead.code !== 'CYCLE') for (const s of signals) if ((judged.contributions[s.code] ?? 0) > (judged.contributions[lead.code] ?? 0)) lead = s;
  return { lead, signals: hits(lead, signals, judged.score), strength: judged.score, span: spanOf(window, lead) };
}
