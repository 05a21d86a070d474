// Fits the judge (the stuck score) and reports it on people the design never saw.
//
//   npx tsx scripts/fit-judge.ts [--users ../shared/corpus/users] [--swe ../shared/corpus] [--seed 1] [--check 0.3]
//                                [--method rules|mil] [--folds 10] [--no-cv] [--check-scores] [--list-margin] [--write]
//
// The protocol (docs/detection.md): the people of both users' dev sets (labels-dev.jsonl, labels-dev-2.jsonl)
// are split, seeded, into a design part and a check part by ../shared/tools/split_people.py, every session of one
// person on one side. Signals are designed by reading the design part's replays, and the levels are fitted here on
// the design part only (with the SWE-bench-style runs); the check part is only ever scored, once per design round
// (--check-scores), and reported beside the design part, and labels-dev-2.jsonl apart as well. --write ships the judge fitted on the
// design part, so that the check part's figures are those of what ships.
//
// Cross-validation, on the design part: folds grouped so that no fold's test data shares a source of sameness
// with its training data (users' sessions by person, SWE runs by the task's repository). Inside each fold the
// model is fitted on the training folds and its threshold chosen there (the lowest that keeps healthy alarms
// within --max-alarm of each set's healthy runs and stops no healthy run, counting what detection does:
// self-protection's refusals are left out there, as no threshold changes them); the fold is then replayed through
// the full engine (floors, ladder, window resets) and scored as ../shared/tools/score_real.py scores a build.
// Fixed in advance, not chosen on any data: the levels tried, the alarm budget, the fold count and the split.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config, SignalCode } from '../src/types.ts';
import { DEFAULT_CONFIG } from '../src/config/defaults.ts';
import type { JudgeModel } from '../src/judge/model.ts';
import { loadLabels, loadTrajectory, type Trajectory } from './judge/extract.ts';
import { bags, fitModel, recenter } from './judge/fit.ts';
import { fitRules, rulesModel } from './judge/rules.ts';
import { add, format, type Metrics, noMetrics, score } from './judge/score.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? fallback : args[i + 1]!;
};
const flag = (name: string, fallback: number) => Number(option(name, String(fallback)));
const FOLDS = flag('folds', 10);
const METHOD = option('method', 'rules');
const MAX_ALARM = flag('max-alarm', 0.015);
const USERS = option('users', '../shared/corpus/users');
const SWE = option('swe', '../shared/corpus');
const USER_SETS = ['labels-dev.jsonl', 'labels-dev-2.jsonl'];
const SEED = option('seed', '1');
const CHECK_SHARE = option('check', '0.3');

const CODES: SignalCode[] = [
  'REPEAT',
  'CYCLE',
  'NEAR_DUPLICATE',
  'SAME_FAILURE',
  'FAILING_RETRY',
  'NO_TREE_CHANGE',
  'UNMOVED_FAILURE',
  'UNSEEN_EDIT',
  'EDIT_REJECTED',
  'REPEATED_EDIT',
  'TREE_OSCILLATION',
  'EMPTY_RESULT',
  'INTENT_RETRY',
  'FRUITLESS',
  'HUNT',
  'SAME_OUTCOME',
  'REREAD',
  'MALFORMED',
];
/**
 * Levels set in advance, not fitted, where the design part holds too few stalls of the kind to fit one: a streak
 * of lookups that find nothing new wherever they look is a stall from eight on (the design part's healthy
 * sessions' longest is five, and two or three empty lookups while exploring are everyday work); a cycle of calls
 * going round with the very same results, from three rounds (the labeling guide's minimum; no design session,
 * stuck or healthy, reaches three).
 */
const FIXED = new Map<SignalCode, number>([
  ['FRUITLESS', 8],
  ['CYCLE', 3],
  ['UNSEEN_EDIT', 3],
]);
const FIT = { l2: flag('l2', 0.01), epochs: flag('epochs', 300), negativeWeight: flag('neg', 1) };
const THRESHOLDS = [
  0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98,
];

const config: Config = {
  ...DEFAULT_CONFIG,
  judge: {
    ...DEFAULT_CONFIG.judge,
    threshold: 0.5,
    stopThreshold: flag('stop-threshold', DEFAULT_CONFIG.judge.stopThreshold),
  },
};

function bySource(ts: Trajectory[]): Map<string, Trajectory[]> {
  const out = new Map<string, Trajectory[]>();
  for (const t of ts) out.set(t.source, [...(out.get(t.source) ?? []), t]);
  return out;
}

/** Whether a threshold keeps within budget on every set: healthy alarms, and no stop on a healthy run. */
function withinBudget(ts: Trajectory[], model: JudgeModel): { ok: boolean; caught: number } {
  let ok = true;
  let caught = 0;
  for (const set of bySource(ts).values()) {
    const m = score(set, config, model, true);
    const [alarmed, healthy] = m.healthyAlarmed;
    if (alarmed > MAX_ALARM * healthy || m.stopsOnHealthy[0] > 0) ok = false;
    caught += m.all[0];
  }
  return { ok, caught };
}

/** The lowest threshold (most recall) whose healthy alarms stay within budget on every set. */
function chooseThreshold(train: Trajectory[], model: JudgeModel): number {
  let best: { threshold: number; caught: number } | undefined;
  for (const threshold of THRESHOLDS) {
    const r = withinBudget(train, recenter(model, threshold));
    if (r.ok && (!best || r.caught > best.caught)) best = { threshold, caught: r.caught };
  }
  return best?.threshold ?? 0.99;
}

/** Groups dealt out to folds in a fixed shuffled order, those with stuck segments first so every fold gets some. */
function assignFolds(all: Trajectory[]): Map<Trajectory, number> {
  const groups = new Map<string, Trajectory[]>();
  for (const t of all) groups.set(t.group, [...(groups.get(t.group) ?? []), t]);
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const stuck = (g: Trajectory[]) => g.reduce((n, t) => n + t.label.segments.length, 0);
  const order = [...groups.values()]
    .map((g) => [random(), g] as const)
    .sort((a, b) => stuck(b[1]) - stuck(a[1]) || a[0] - b[0]);
  // each group goes to the fold with the fewest stuck segments so far (then the fewest runs)
  const load = Array.from({ length: FOLDS }, () => ({ stuck: 0, runs: 0 }));
  const fold = new Map<Trajectory, number>();
  for (const [, g] of order) {
    let k = 0;
    for (let j = 1; j < FOLDS; j++)
      if (load[j]!.stuck < load[k]!.stuck || (load[j]!.stuck === load[k]!.stuck && load[j]!.runs < load[k]!.runs))
        k = j;
    load[k]!.stuck += stuck(g);
    load[k]!.runs += g.length;
    for (const t of g) fold.set(t, k);
  }
  return fold;
}

/** Metrics per source and per agent within it, scored by `scoreOf`. */
function report(title: string, ts: Trajectory[], scoreOf: (ts: Trajectory[]) => Metrics): void {
  console.log(title);
  for (const [source, set] of bySource(ts)) {
    console.log(`  ${source}: ${format(scoreOf(set))}`);
    const agents = [...new Set(set.map((t) => t.agent))].sort();
    for (const agent of agents) console.log(`    ${agent}: ${format(scoreOf(set.filter((t) => t.agent === agent)))}`);
  }
}

/** The users' sessions of the check part: the people split_people.py holds out of the design. */
function checkPeople(labelFiles: string[]): Set<string> {
  const out = mkdtempSync(join(tmpdir(), 'stallguard-split-'));
  try {
    const split = spawnSync(
      'python3',
      [
        '../shared/tools/split_people.py',
        join(USERS, 'traces'),
        ...labelFiles,
        '--seed',
        SEED,
        '--check',
        CHECK_SHARE,
        '--out',
        out,
      ],
      { encoding: 'utf8' },
    );
    if (split.status !== 0) throw new Error(`split_people.py failed: ${split.error?.message ?? split.stderr.trim()}`);
    console.log(`split (seed ${SEED}, check share ${CHECK_SHARE}):\n  ${split.stdout.trim().replaceAll('\n', '\n  ')}`);
    return new Set(readFileSync(join(out, 'check.ids'), 'utf8').split('\n').filter(Boolean));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

const userFiles = USER_SETS.map((f) => join(USERS, f)).filter((f) => existsSync(f));
const sweFile = join(SWE, 'labels-dev.jsonl');
if (userFiles.length === 0) console.log(`(no labeled users' sessions at ${USERS}: left out)`);
if (!existsSync(sweFile)) console.log(`(no labeled SWE-bench-style runs at ${SWE}: left out)`);
const check = userFiles.length > 0 ? checkPeople(userFiles) : new Set<string>();
/** Which users' label file each session comes from, for reporting labels-dev-2.jsonl apart. */
const fileOf = new Map<Trajectory, string>();
const design: Trajectory[] = [];
const held: Trajectory[] = [];
for (const file of userFiles)
  for (const label of loadLabels(file)) {
    const t = loadTrajectory(join(USERS, 'traces'), label, 'users');
    fileOf.set(t, file.replace(/^.*\//, ''));
    (check.has(label.id) ? held : design).push(t);
  }
if (existsSync(sweFile))
  for (const label of loadLabels(sweFile)) design.push(loadTrajectory(join(SWE, 'traces'), label, 'swe'));

/**
 * The judge fitted on `train`. `rules` (the default): per-signal thresholds chosen to catch the most within
 * the alarm budget (judge/rules.ts). `mil`: the noisy-OR with hinge terms fitted by multiple-instance learning
 * (judge/fit.ts), then the threshold chosen within the budget.
 */
function fit(train: Trajectory[]): { model: JudgeModel; about: string; rules?: Map<SignalCode, number> } {
  if (METHOD === 'rules') {
    const rules = fitRules(train, CODES, MAX_ALARM, FIXED);
    return { model: rulesModel(rules), about: [...rules].map(([c, v]) => `${c}>=${v}`).join(' '), rules };
  }
  const model = fitModel(bags(train), CODES, FIT);
  const threshold = chooseThreshold(train, model);
  return { model: recenter(model, threshold), about: `threshold ${threshold}` };
}

const fold = assignFolds(design);
if (!args.includes('--no-cv')) crossValidate();

function crossValidate(): void {
  const cvFires = new Map<Trajectory, JudgeModel>();
  for (let k = 0; k < FOLDS; k++) {
    const train = design.filter((t) => fold.get(t) !== k);
    const test = design.filter((t) => fold.get(t) === k);
    const { model, about } = fit(train);
    for (const t of test) cvFires.set(t, model);
    console.log(
      `fold ${k + 1}/${FOLDS}: ${new Set(test.map((t) => t.group)).size} groups, ${about}: ${format(score(test, config, model))}`,
    );
  }
  const cv = (ts: Trajectory[]) => ts.reduce((m, t) => add(m, score([t], config, cvFires.get(t)!)), noMetrics());
  report(
    `cross-validated on the design part (${FOLDS} folds, users grouped by person, SWE runs by repository):`,
    design,
    cv,
  );
  report('deterministic floors alone (no judge), design part:', design, (ts) =>
    score(ts, { ...config, judge: { ...config.judge, enabled: false } }, {}),
  );
}

const { model: final, about, rules } = fit(design);
const scored = (ts: Trajectory[]) => score(ts, config, final);
report(`fitted on the design part, ${about} (in-sample, optimistic):`, design, scored);
// How near the design part's healthy work comes to a nudge: the healthy runs alarmed with every level one lower.
// A level that many of them nearly reach alarms people never seen sooner (round 11 in docs/detection.md), so this
// is the number a design round can move without looking at the check part.
if (rules) {
  // REREAD may be fitted at 2, the least any signal counts: there one lower is the same level
  const lower = rulesModel(new Map([...rules].map(([c, v]) => [c, Math.max(2, v - 1)])));
  report('margin: the same with every level one lower (healthy alarmed = those within one attempt):', design, (ts) =>
    score(ts, config, lower),
  );
  // --list-margin names them, design sessions only, so that a round can be compared with the build before it
  if (args.includes('--list-margin'))
    for (const t of design)
      if (score([t], config, lower).healthyAlarmed[0] > 0) console.log(`  near: ${t.source} ${t.label.id}`);
}
// the check part is looked at only as scores, once per design round: --check-scores says this is that once
if (args.includes('--check-scores')) {
  report('check part, people the design never saw (scored once per design round):', held, scored);
  for (const file of userFiles.map((f) => f.replace(/^.*\//, '')))
    report(
      `${file} alone, design and check people:`,
      [...design, ...held].filter((t) => fileOf.get(t) === file),
      scored,
    );
}
if (args.includes('--write')) {
  writeFileSync(new URL('../src/judge/weights.json', import.meta.url), JSON.stringify(final, null, 1) + '\n');
  console.log('wrote src/judge/weights.json');
}
