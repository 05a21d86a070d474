import type { SignalCode } from '../types.ts';
import type { SignalResult } from '../detect/signal.ts';

// The stuck score, fitted on hand-labeled real trajectories by scripts/fit-judge.ts and shipped as data
// (judge/weights.json). It is a noisy-OR: each signal gives its own probability that the agent is stuck,
// p = sigmoid(bias + sum of weight * max(0, value - knot + 1)), and the score is the probability that at
// least one of them is right, 1 - prod(1 - p). Any one signal strong enough is a stall by itself, and
// weaker signals seen together add up. Weights are non-negative, so the score only rises as a signal
// grows stronger: more repeats never make an agent look less stuck.

export interface Hinge {
  knot: number;
  weight: number;
}

export interface SignalModel {
  bias: number;
  hinges: Hinge[];
}

export type JudgeModel = Partial<Record<SignalCode, SignalModel>>;

export interface Scored {
  score: number;
  /** Each signal's own probability, for naming the strongest in a message. */
  contributions: Partial<Record<SignalCode, number>>;
}

/** The hinge features of a value: how far past each knot it is. Values past `cap` count as `cap`. */
export function hinge(value: number, knot: number, cap = 12): number {
  return Math.max(0, Math.min(value, cap) - knot + 1);
}

export function signalProbability(model: SignalModel, value: number): number {
  let z = model.bias;
  for (const h of model.hinges) z += h.weight * hinge(value, h.knot);
  return 1 / (1 + Math.exp(-z));
}

export function scoreSignals(signals: readonly SignalResult[], model: JudgeModel): Scored {
  const value: Partial<Record<SignalCode, number>> = {};
  for (const s of signals) value[s.code] = Math.max(value[s.code] ?? 0, s.value);
  let none = 1;
  const contributions: Partial<Record<SignalCode, number>> = {};
  for (const [code, v] of Object.entries(value) as [SignalCode, number][]) {
    const m = model[code];
    if (!m) continue;
    const p = signalProbability(m, v);
    contributions[code] = p;
    none *= 1 - p;
  }
  return { score: 1 - none, contributions };
}

/** The probability a level-style signal model gives one below its level: where the optional LLM judge is asked. */
const SMELL_BELOW = 0.05;

/**
 * A signal that is a stall by itself from `level` on: probability ~1 there, 0.05 one below (trouble smelt: the default
 * llm.smell); twelve signals one below their levels still make no stall, ~0 further
 * below. The shipped judge is made of these (scripts/judge/rules.ts fits the levels).
 */
export function levelModel(level: number): SignalModel {
  const bias = -12;
  return {
    bias,
    hinges: [{ knot: level - 1, weight: Math.round((Math.log(SMELL_BELOW / (1 - SMELL_BELOW)) - bias) * 1000) / 1000 }],
  };
}

/** The judge with some signals' levels set (a level) or cleared (null). */
export function withLevels(model: JudgeModel, levels: Partial<Record<SignalCode, number | null>>): JudgeModel {
  const out: JudgeModel = { ...model };
  for (const [code, level] of Object.entries(levels) as [SignalCode, number | null][]) {
    if (level === null) delete out[code];
    else out[code] = levelModel(level);
  }
  return out;
}
