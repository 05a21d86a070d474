import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../src/types.ts';
import { DEFAULT_CONFIG } from '../src/config/defaults.ts';
import { historyRun } from '../src/review/collect.ts';
import { replayRun, type Run, type RunStall, stallsOf } from '../src/review/run.ts';
import type { Answer } from '../src/store/verdicts.ts';
import { verdictOf } from '../src/review/verdict.ts';
import { changes, get, KNOBS, ladder, MAX_STEPS, settingsOf, shown, withSettings } from '../src/tune/settings.ts';
import { tune, type TuneResult } from '../src/tune/tune.ts';
import { missing } from './support/needs.ts';

// Is tuning to verdicts honest? The labels of a hand-labeled corpus stand in for a person's verdicts: every
// stall the shipped settings make on half of the corpus is marked right when it falls inside a labeled stuck
// segment (within [start, end+1], as the corpus is scored) and wrong otherwise. tune fits on those verdicts,
// and the other half, people (or, for the SWE-bench-style runs, repositories) it never saw, measures what
// the change does to the catches and the false alarms. Both halves take each role. The halves are made
// before anything is tuned, from the labels alone: groups dealt out by their stuck segments. The figures
// are printed as they are; the test holds tune to what it promises: agreement with the verdicts it was
// given, changes within bounds and the seed floors kept, and no runaway change on the held-out half. Then a
// person who marks every intervention wrong: a warning, a bounded change, a detector that still steps in.

const SHARED = join(import.meta.dirname, '..', '..', 'shared', 'corpus');
const skip = missing(
  join(SHARED, 'users', 'labels-dev.jsonl'),
  'the labeled corpora beside the repository (../shared, as on CI)',
);

interface Segment {
  start: number;
  end: number;
  confidence: string;
}
interface Labeled {
  run: Run;
  group: string;
  overall: string;
  segments: Segment[];
}

const loaded = new Map<string, Labeled[]>();

/** A labeled set's runs, read once for all the tests here. */
function load(dir: string, by: 'person' | 'repository'): Labeled[] {
  const key = `${dir}\u0000${by}`;
  if (!loaded.has(key)) loaded.set(key, read(dir, by));
  return loaded.get(key)!;
}

function read(dir: string, by: 'person' | 'repository'): Labeled[] {
  const labels = readFileSync(join(dir, 'labels-dev.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; overall: string; segments: Segment[] });
  return labels.map((label) => {
    const file = join(dir, 'traces', `${label.id}.jsonl`);
    const meta = (
      JSON.parse(readFileSync(file, 'utf8').split('\n', 1)[0]!) as {
        meta: { owner?: string; task_repo?: string; instance?: string };
      }
    ).meta;
    const repo =
      meta.task_repo ??
      /^(.+?)__(.+)-\d+$/
        .exec(meta.instance ?? '')
        ?.slice(1)
        .join('/') ??
      meta.instance ??
      label.id;
    return {
      run: historyRun(file)!,
      group: by === 'person' ? (meta.owner ?? label.id) : repo,
      overall: label.overall,
      segments: label.segments,
    };
  });
}

/** Two halves by group, dealt out as fit-judge.ts deals its folds: the groups with most stuck segments first, each to the half with fewer so far. */
function halves(all: Labeled[]): [Labeled[], Labeled[]] {
  const groups = new Map<string, Labeled[]>();
  for (const x of all) groups.set(x.group, [...(groups.get(x.group) ?? []), x]);
  const stuck = (g: Labeled[]) => g.reduce((n, x) => n + x.segments.length, 0);
  const order = [...groups].sort((a, b) => stuck(b[1]) - stuck(a[1]) || (a[0] < b[0] ? -1 : 1));
  const out: [Labeled[], Labeled[]] = [[], []];
  const load = [0, 0];
  for (const [, g] of order) {
    const k = load[0]! < load[1]! || (load[0] === load[1] && out[0].length <= out[1].length) ? 0 : 1;
    load[k]! += stuck(g);
    out[k].push(...g);
  }
  return out;
}

const inSegment = (x: Labeled, step: number) => x.segments.some((s) => step >= s.start && step <= s.end + 1);

interface Measured {
  caught: number;
  high: number;
  segments: number;
  highs: number;
  falseAlarms: number;
  healthyAlarmed: number;
  healthy: number;
  stopsOnHealthy: number;
  stalls: number;
}

const shippedStalls = new Map<Run, RunStall[]>();
/** A run's stalls under `config`; the shipped settings' are replayed once for all the tests here. */
function stallsUnder(run: Run, config: Config): RunStall[] {
  if (config !== DEFAULT_CONFIG) return stallsOf(run, replayRun(run, config));
  if (!shippedStalls.has(run)) shippedStalls.set(run, stallsOf(run, replayRun(run, config)));
  return shippedStalls.get(run)!;
}

function measure(xs: Labeled[], config: Config): Measured {
  const m: Measured = {
    caught: 0,
    high: 0,
    segments: 0,
    highs: 0,
    falseAlarms: 0,
    healthyAlarmed: 0,
    healthy: 0,
    stopsOnHealthy: 0,
    stalls: 0,
  };
  for (const x of xs) {
    const stalls = stallsUnder(x.run, config);
    m.stalls += stalls.length;
    for (const s of x.segments) {
      const hit = stalls.some((f) => f.step >= s.start && f.step <= s.end + 1);
      m.segments++;
      if (hit) m.caught++;
      if (s.confidence === 'high') {
        m.highs++;
        if (hit) m.high++;
      }
    }
    m.falseAlarms += stalls.filter((f) => !inSegment(x, f.step)).length;
    if (x.overall === 'healthy') {
      m.healthy++;
      if (stalls.length > 0) m.healthyAlarmed++;
      if (stalls.some((f) => f.action === 'stop')) m.stopsOnHealthy++;
    }
  }
  return m;
}

/** tune on the verdicts the labels give the shipped settings' stalls on `xs` (or `answer` for every one of them). */
function tuneOn(xs: Labeled[], answer?: Answer): { result: TuneResult; after: Config } {
  const verdicts = xs.flatMap((x) =>
    stallsUnder(x.run, DEFAULT_CONFIG).map((st) =>
      verdictOf(x.run, st, answer ?? (inSegment(x, st.step) ? 'right' : 'wrong'), 0),
    ),
  );
  const result = tune({
    verdicts,
    runs: () => xs.map((x) => x.run),
    before: DEFAULT_CONFIG,
    beneath: DEFAULT_CONFIG,
    fixed: new Set(),
    after: (s) => withSettings(DEFAULT_CONFIG, s),
  });
  return { result, after: withSettings(DEFAULT_CONFIG, result.settings.after) };
}

function assertBounded(after: Config): void {
  const shipped = settingsOf(DEFAULT_CONFIG);
  const s = settingsOf(after);
  for (const k of KNOBS) {
    const l = ladder(k, get(shipped, k));
    assert.ok(
      Math.abs(l.indexOf(get(s, k)) - l.indexOf(get(shipped, k))) <= MAX_STEPS,
      `${k.name} moved ${shown(get(shipped, k))} -> ${shown(get(s, k))}`,
    );
  }
  for (const f of [
    'repeat',
    'cycleRepeats',
    'maxCycle',
    'spawnCap',
    'orchestrators',
    'stopAfterRefusals',
    'stopAfterStalls',
    'window',
  ] as const)
    assert.deepEqual(after[f], DEFAULT_CONFIG[f], `${f} is never tuned`);
}

const ratio = (a: number, b: number) => `${a}/${b}`;
const line = (m: Measured) =>
  `catches ${ratio(m.caught, m.segments)} (high ${ratio(m.high, m.highs)}), false alarms ${m.falseAlarms}, healthy runs alarmed ${ratio(m.healthyAlarmed, m.healthy)}`;

describe('tuning on half of a labeled corpus, measured on the other half', { skip }, () => {
  for (const [name, dir, by] of [
    ['users', join(SHARED, 'users'), 'person'],
    ['swe', SHARED, 'repository'],
  ] as const) {
    it(`${name}: split by ${by}, both ways`, () => {
      const [a, b] = halves(load(dir, by));
      for (const [direction, train, test] of [
        ['first half -> second', a, b],
        ['second half -> first', b, a],
      ] as const) {
        const { result, after } = tuneOn(train);
        const before = measure(test, DEFAULT_CONFIG);
        const tuned = measure(test, after);
        const groups = (xs: Labeled[]) => new Set(xs.map((x) => x.group)).size;
        const moved = changes(settingsOf(DEFAULT_CONFIG), result.settings.after).map(
          ([k, f, t]) => `${k.name} ${shown(f)}->${shown(t)}`,
        );
        console.log(
          `# ${name} ${direction}: tuned on ${result.verdicts.right + result.verdicts.wrong} verdicts (${result.verdicts.right} right, ${result.verdicts.wrong} wrong) from ${groups(train)} ${by === 'person' ? 'people' : 'repositories'}: ${moved.join(', ') || 'no change'}; agrees with ${result.agreed.before} -> ${result.agreed.after} of them`,
        );
        console.log(
          `#   held out (${groups(test)} ${by === 'person' ? 'people' : 'repositories'}): shipped ${line(before)}`,
        );
        console.log(
          `#   held out, tuned:     ${line(tuned)}  (catches ${tuned.caught - before.caught >= 0 ? '+' : ''}${tuned.caught - before.caught}, false alarms ${tuned.falseAlarms - before.falseAlarms >= 0 ? '+' : ''}${tuned.falseAlarms - before.falseAlarms})`,
        );
        assert.ok(
          result.agreed.after >= result.agreed.before,
          'tuned settings agree with at least as many of the verdicts they were fitted to',
        );
        assertBounded(after);
        assert.equal(tuned.stopsOnHealthy, 0, 'no stop on a healthy run it never saw');
        assert.ok(
          tuned.caught >= before.caught - 2,
          `held-out catches ${before.caught} -> ${tuned.caught}: no runaway change`,
        );
        assert.ok(
          tuned.falseAlarms <= before.falseAlarms + 2 && tuned.healthyAlarmed <= before.healthyAlarmed + 1,
          'held-out false alarms: no runaway change',
        );
      }
    });
  }

  it('a person who marks every intervention wrong gets a warning and a bounded change, not a silent detector', () => {
    const all = load(join(SHARED, 'users'), 'person');
    const { result, after } = tuneOn(all, 'wrong');
    const before = measure(all, DEFAULT_CONFIG);
    const tuned = measure(all, after);
    const floors = measure(all, { ...DEFAULT_CONFIG, judge: { ...DEFAULT_CONFIG.judge, enabled: false } });
    console.log(
      `# everything marked wrong (${result.verdicts.wrong} verdicts): ${line(before)} -> ${line(tuned)}; the floors alone: ${line(floors)}`,
    );
    assert.match(result.warning ?? '', /^You marked \d+ of \d+ interventions wrong\./);
    assertBounded(after);
    assert.ok(
      tuned.stalls > 0 && tuned.stalls >= floors.stalls,
      `still steps in: ${tuned.stalls} stalls, the floors alone ${floors.stalls}`,
    );
    assert.ok(tuned.caught >= floors.caught, 'still catches what the floors catch');
  });
});
