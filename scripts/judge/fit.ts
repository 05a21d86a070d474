// Fits the noisy-OR judge (src/judge/model.ts) by gradient descent on bags of steps, with the weights
// projected onto >= 0 after every step so that the score stays monotone in every signal.
import type { SignalCode } from '../../src/types.ts';
import { hinge, type JudgeModel } from '../../src/judge/model.ts';
import type { Trajectory } from './extract.ts';

export const KNOTS = [2, 3, 4, 5, 6, 8];

/**
 * A bag of steps with one label. The metric is about segments and trajectories, not steps: a segment is
 * caught if the score is high at any of its steps, a healthy trajectory is alarmed if it is high at any of
 * its steps. So the model is fitted on bags (multiple-instance learning): a bag is positive when at least
 * one of its steps is.
 */
export interface Bag {
  steps: Partial<Record<SignalCode, number>>[];
  y: 0 | 1;
  weight: number;
}

/**
 * Real users' sessions weigh double: they are what stallguard is for, and the SWE-bench harnesses' habits
 * (paging through files with scroll_down, a line-range edit command) would otherwise set the weights.
 */
const SOURCE_WEIGHT: Record<Trajectory['source'], number> = { users: 2, swe: 1 };

export function bags(trajectories: Trajectory[]): Bag[] {
  const out: Bag[] = [];
  for (const t of trajectories) {
    const w = SOURCE_WEIGHT[t.source];
    for (const g of t.label.segments) {
      const from = Math.min(g.clear, g.end);
      const steps = t.steps.filter((s) => s.step >= from && s.step <= g.end + 1).map((s) => s.values);
      if (steps.length > 0) out.push({ steps, y: 1, weight: w * (g.confidence === 'high' ? 1 : 0.6) });
    }
    const outside = t.steps
      .filter((s) => !t.label.segments.some((g) => s.step >= g.start && s.step <= g.end + 1))
      .map((s) => s.values);
    if (outside.length > 0) out.push({ steps: outside, y: 0, weight: w * (t.label.segments.length === 0 ? 1 : 0.5) });
  }
  return out;
}

const softplus = (z: number) => (z > 30 ? z : Math.log1p(Math.exp(z)));
const sigmoid = (z: number) => 1 / (1 + Math.exp(-z));

export function fitModel(
  data: Bag[],
  codes: SignalCode[],
  opts: { l2: number; epochs: number; negativeWeight: number },
): JudgeModel {
  const S = codes.length;
  const K = KNOTS.length;
  const bias = new Float64Array(S).fill(-6);
  const w = new Float64Array(S * K);
  const params = S + S * K;
  const m = new Float64Array(params);
  const v = new Float64Array(params);
  const lr = 0.05;
  // per bag, per step: the signals present and their hinge features
  const feats = data.map((bag) =>
    bag.steps.map((values) =>
      codes.flatMap((code, s) =>
        values[code] === undefined ? [] : [{ s, x: KNOTS.map((knot) => hinge(values[code]!, knot)) }],
      ),
    ),
  );
  for (let epoch = 1; epoch <= opts.epochs; epoch++) {
    const g = new Float64Array(params);
    let total = 0;
    for (let i = 0; i < data.length; i++) {
      const bag = data[i]!;
      const wt = bag.weight * (bag.y ? 1 : opts.negativeWeight);
      total += wt;
      // Q = prod over steps and signals of (1 - p): the probability that nothing in the bag is stuck
      const zs = feats[i]!.map((step) =>
        step.map(({ s, x }) => x.reduce((z, xk, k) => z + w[s * K + k]! * xk, bias[s]!)),
      );
      const logQ = -zs.reduce((a, step) => a + step.reduce((b, z) => b + softplus(z), 0), 0);
      const Q = Math.exp(logQ);
      for (const [j, step] of feats[i]!.entries())
        for (const [n, { s, x }] of step.entries()) {
          const p = sigmoid(zs[j]![n]!);
          // d(-log(1-Q))/dz = -Q p / (1-Q) for a positive bag; d(-log Q)/dz = p for a negative one
          const d = (bag.y ? (-Q * p) / Math.max(1 - Q, 1e-9) : p) * wt;
          g[s]! += d;
          for (const [k, xk] of x.entries()) if (xk) g[S + s * K + k]! += d * xk;
        }
    }
    for (let j = 0; j < params; j++) {
      const grad = g[j]! / total + (j >= S ? opts.l2 * w[j - S]! : 0);
      m[j] = 0.9 * m[j]! + 0.1 * grad;
      v[j] = 0.999 * v[j]! + 0.001 * grad * grad;
      const step = (lr * (m[j]! / (1 - 0.9 ** epoch))) / (Math.sqrt(v[j]! / (1 - 0.999 ** epoch)) + 1e-8);
      if (j < S) bias[j] = bias[j]! - step;
      else w[j - S] = Math.max(0, w[j - S]! - step);
    }
  }
  const model: JudgeModel = {};
  codes.forEach((code, s) => {
    const hinges = KNOTS.map((knot, k) => ({ knot, weight: Math.round(w[s * K + k]! * 1000) / 1000 })).filter(
      (h) => h.weight > 0,
    );
    if (hinges.length > 0) model[code] = { bias: Math.round(bias[s]! * 1000) / 1000, hinges };
  });
  return model;
}

/**
 * The same judge with every signal's bias moved so that an overall score of `threshold` sits where 0.5
 * does: the shipped model's decision point is then 0.5, whatever threshold was fitted. Exact for a single
 * signal; with several signals firing together it is a close approximation.
 */
export function recenter(model: JudgeModel, threshold: number): JudgeModel {
  const shift = Math.log(threshold / (1 - threshold));
  return Object.fromEntries(
    Object.entries(model).map(([code, m]) => [code, { ...m, bias: m!.bias - shift }]),
  ) as JudgeModel;
}
