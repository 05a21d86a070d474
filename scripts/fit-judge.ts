// Fits the judge (the stuck score) on hand-labeled trajectories and reports cross-validated results.
//
//   npx tsx scripts/fit-judge.ts ../shared/corpus/traces ../shared/corpus/labels-dev.jsonl [--folds 5] [--write]
//
// Cross-validation is grouped by trajectory: each fold's model and threshold are chosen on the other
// folds only, then the fold is replayed through the full engine (floors, ladder, window resets) and scored
// as ../shared/tools/score_real.py scores a build. --write fits on everything and writes
// src/judge/weights.json, with the threshold folded into the bias so that 0.5 is the decision point.
import { writeFileSync } from 'node:fs';
import type { Config, SignalCode } from '../src/types.ts';
import { DEFAULT_CONFIG } from '../src/config/defaults.ts';
import type { JudgeModel } from '../src/judge/model.ts';
import { loadLabels, loadTrajectory, type Trajectory } from './judge/extract.ts';
import { bags, fitModel, recenter } from './judge/fit.ts';
import { format, type Metrics, score } from './judge/score.ts';

const args = process.argv.slice(2);
const [tracesDir, labelsFile] = args.filter((a) => !a.startsWith('--'));
if (!tracesDir || !labelsFile) {
  console.error('usage: tsx scripts/fit-judge.ts TRACES_DIR LABELS.jsonl [--folds 5] [--write]');
  process.exit(2);
}
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(args[i + 1]);
};
const FOLDS = flag('folds', 10);
const MAX_ALARM = flag('max-alarm', 0.01);

const CODES: SignalCode[] = ['REPEAT', 'CYCLE', 'NEAR_DUPLICATE', 'SAME_FAILURE', 'FAILING_RETRY', 'NO_TREE_CHANGE', 'EDIT_REJECTED', 'REPEATED_EDIT', 'TREE_OSCILLATION', 'EMPTY_RESULT', 'SAME_OUTCOME', 'REREAD', 'MALFORMED'];
const FIT = { l2: flag('l2', 0.01), epochs: flag('epochs', 300), negativeWeight: flag('neg', 1) };
const THRESHOLDS = [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98];

const config: Config = { ...DEFAULT_CONFIG, judge: { ...DEFAULT_CONFIG.judge, threshold: 0.5, stopThreshold: flag('stop-threshold', DEFAULT_CONFIG.judge.stopThreshold) } };

/** The lowest threshold (most recall) whose healthy alarms stay within budget and that stops no resolved healthy run. */
function chooseThreshold(train: Trajectory[], model: JudgeModel): { threshold: number; metrics: Metrics } {
  let best: { threshold: number; metrics: Metrics } | undefined;
  for (const threshold of THRESHOLDS) {
    const metrics = score(train, config, recenter(model, threshold));
    const [alarmed, healthy] = metrics.healthyAlarmed;
    if (alarmed <= MAX_ALARM * healthy && metrics.stopsOnResolved[0] === 0) {
      if (!best || metrics.all[0] > best.metrics.all[0]) best = { threshold, metrics };
    }
  }
  return best ?? { threshold: 0.99, metrics: score(train, config, recenter(model, 0.99)) };
}

function add(a: Metrics, b: Metrics): Metrics {
  const p = (x: [number, number], y: [number, number]): [number, number] => [x[0] + y[0], x[1] + y[1]];
  return { high: p(a.high, b.high), all: p(a.all, b.all), healthyAlarmed: p(a.healthyAlarmed, b.healthyAlarmed), stopsOnResolved: p(a.stopsOnResolved, b.stopsOnResolved), delays: [...a.delays, ...b.delays] };
}

const labels = loadLabels(labelsFile);
const all = labels.map((l) => loadTrajectory(tracesDir, l));

// folds: stuck and healthy trajectories dealt out separately, in a fixed shuffled order
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const order = (xs: Trajectory[]) => xs.map((t) => [random(), t] as const).sort((a, b) => a[0] - b[0]).map(([, t]) => t);
const fold = new Map<Trajectory, number>();
[...order(all.filter((t) => t.label.segments.length > 0)), ...order(all.filter((t) => t.label.segments.length === 0))].forEach((t, i) => fold.set(t, i % FOLDS));

let cv: Metrics = { high: [0, 0], all: [0, 0], healthyAlarmed: [0, 0], stopsOnResolved: [0, 0], delays: [] };
for (let k = 0; k < FOLDS; k++) {
  const train = all.filter((t) => fold.get(t) !== k);
  const test = all.filter((t) => fold.get(t) === k);
  const model = fitModel(bags(train), CODES, FIT);
  const { threshold } = chooseThreshold(train, model);
  const m = score(test, config, recenter(model, threshold));
  console.log(`fold ${k + 1}/${FOLDS}: threshold ${threshold}: ${format(m)}`);
  cv = add(cv, m);
}
console.log(`cross-validated (${FOLDS} folds): ${format(cv)}`);

const floorsOnly = score(all, { ...config, judge: { ...config.judge, enabled: false } }, {});
console.log(`deterministic floors alone, all data: ${format(floorsOnly)}`);

const model = fitModel(bags(all), CODES, FIT);
const { threshold, metrics } = chooseThreshold(all, model);
console.log(`fitted on all data: threshold ${threshold}: ${format(metrics)} (in-sample, optimistic)`);
if (args.includes('--write')) {
  const shipped = recenter(model, threshold);
  writeFileSync(new URL('../src/judge/weights.json', import.meta.url), JSON.stringify(shipped, null, 1) + '\n');
  console.log('wrote src/judge/weights.json');
}
