import type { Config } from '../types.ts';
import { indexRun, replayRun, type Run, type RunIndex, type RunStall, stallsOf } from '../review/run.ts';
import type { Verdict } from '../store/verdicts.ts';
import {
  type Base,
  baseOf,
  heldBySeed,
  onRegion,
  recordedSummary,
  type Region,
  summarize,
  type Summary,
} from './evidence.ts';
import { agreement, type Case, fit } from './fit.ts';
import { changes, type Knob, type Level, MAX_STEPS, set, type Settings, settingsOf, withSettings } from './settings.ts';
import { DEFAULT_CONFIG } from '../config/defaults.ts';

// `stallguard tune` as a pure computation over the person's history: find the stalls the verdicts are
// about, fit the settings to them, and replay every session under the settings before and after, through
// the full engine, to say what changes: interventions that stay, that go, that appear, and for each change
// of a setting how many verdicts it brings into agreement and how many out of it. The files are read by
// the caller, which hands the sessions in as runs (iterated twice: once to weigh, once to compare).

export interface TuneInput {
  /** Verdicts that say something (right or wrong). */
  verdicts: readonly Verdict[];
  runs: () => Iterable<Run>;
  /** The config in force now. */
  before: Config;
  /** The config in force without the layer being fitted: the prior. */
  beneath: Config;
  /** Settings a file above the layer sets by hand. */
  fixed: ReadonlySet<string>;
  /** The config in force once the layer holds `s`. */
  after: (s: Settings) => Config;
}

export interface Shown {
  session: string;
  agent: string;
  step: number;
  action: string;
  loop: string;
  verdict?: Verdict['verdict'];
}

export interface Group {
  count: number;
  /** Interventions on stalls marked right, and on stalls marked wrong. */
  right: number;
  wrong: number;
  /** A few of them, for the person to recognise (those with a verdict first). */
  examples: Shown[];
}

export interface Change {
  knob: Knob;
  from: Level;
  to: Level;
  /**
   * Verdicts the tuned settings agree with that they would not with this setting left as it is now, and the
   * other way round: what this change wins and loses, with the other changes made (several settings often
   * have to move together for a stall to be silenced).
   */
  agrees: number;
  disagrees: number;
}

export interface TuneResult {
  verdicts: {
    right: number;
    wrong: number;
    found: number /** sessions no longer readable: weighed by their recorded signals */;
    recorded: number;
  };
  settings: { before: Settings; after: Settings; prior: Settings };
  changes: Change[];
  /** Verdicts the settings agree with, in the replays (and, for sessions gone, by their recorded signals). */
  agreed: { before: number; after: number; of: number };
  sessions: number;
  stay: Group;
  go: Group;
  appear: Group;
  /** Stalls marked wrong that a seed floor steps in on whatever tune does. */
  heldBySeed: Shown[];
  warning?: string;
}

interface Located {
  verdict: Verdict;
  region: Region;
}

/**
 * Where a verdict's stall is in a run: from the first call of its loop through the calls that went on
 * repeating it. A stall marked right is still caught by a stall flagged at the call after that, as the
 * labeled corpora are scored (a fire within [start, end+1]); one marked wrong is the loop alone.
 */
function locate(v: Verdict, index: RunIndex): Region | undefined {
  const list = index.calls.get(v.agent);
  const at = list?.findIndex((c) => c.ref.call === v.call && c.ref.nth === v.nth) ?? -1;
  if (at === -1) return undefined;
  const from = Math.max(0, at - v.span + 1);
  return v.verdict === 'right'
    ? { agent: v.agent, from, to: at + v.more + 1, kind: 'catch' }
    : { agent: v.agent, from, to: at + v.more, kind: 'loop' };
}

const inRegion = (r: Region, s: RunStall) => s.agent === r.agent && onRegion(r, s.ordinal, s.ordinal - s.span + 1);
/** Two stalls are the same one under other settings when their loops share a call. */
const sameStall = (a: RunStall, b: RunStall) =>
  a.agent === b.agent && a.ordinal - a.span + 1 <= b.ordinal + b.more && b.ordinal - b.span + 1 <= a.ordinal + a.more;

function newGroup(): Group {
  return { count: 0, right: 0, wrong: 0, examples: [] };
}

const EXAMPLES = 6;

function note(g: Group, run: Run, s: RunStall, verdict: Verdict | undefined): void {
  g.count++;
  if (verdict?.verdict === 'right') g.right++;
  if (verdict?.verdict === 'wrong') g.wrong++;
  const shown: Shown = {
    session: run.session,
    agent: s.agent,
    step: s.step,
    action: s.action,
    loop: s.loop,
    ...(verdict ? { verdict: verdict.verdict } : {}),
  };
  // those with a verdict first, then the first ones met
  if (verdict) {
    const at = g.examples.findIndex((e) => !e.verdict);
    if (at !== -1) g.examples.splice(at, 0, shown);
    else g.examples.push(shown);
  } else g.examples.push(shown);
  if (g.examples.length > EXAMPLES) g.examples.length = EXAMPLES;
}

/** Fires a config makes on a located verdict's stretch. */
function agreesIn(l: Located, stalls: RunStall[]): boolean {
  return stalls.some((s) => inRegion(l.region, s)) === (l.verdict.verdict === 'right');
}

const WARN_SHARE = 0.8;
const WARN_MIN = 3;

export function tune(input: TuneInput): TuneResult {
  const { verdicts, before, beneath } = input;
  const bySession = new Map<string, Verdict[]>();
  for (const v of verdicts) bySession.set(v.session, [...(bySession.get(v.session) ?? []), v]);
  const base: Base = baseOf(before);

  // 1. weigh: each verdict's stretch, found in its session
  const found = new Map<string, Summary>();
  const seedHeld: Shown[] = [];
  for (const run of input.runs()) {
    const mine = (bySession.get(run.session) ?? []).filter((v) => !found.has(v.id));
    if (mine.length === 0) continue;
    const index = indexRun(run);
    const located = mine.flatMap((v) => {
      const region = locate(v, index);
      return region ? [{ verdict: v, region }] : [];
    });
    const summaries = summarize(
      run,
      located.map((l) => l.region),
      before,
    );
    for (const [i, l] of located.entries()) found.set(l.verdict.id, summaries[i]!);
  }
  const cases: Case[] = [];
  let recorded = 0;
  for (const v of verdicts) {
    let summary = found.get(v.id);
    if (!summary) {
      summary = recordedSummary(v);
      recorded++;
    }
    cases.push({ answer: v.verdict as Case['answer'], summary });
    if (v.verdict === 'wrong' && heldBySeed(summary, base))
      seedHeld.push({ session: v.session, agent: v.agent, step: -1, action: v.action, loop: v.loop, verdict: 'wrong' });
  }

  // 2. fit
  const prior = settingsOf(beneath);
  const shipped = settingsOf(DEFAULT_CONFIG);
  const fitted = fit({ cases, prior, shipped, fixed: input.fixed, base });
  const now = settingsOf(before);
  const afterConfig = input.after(fitted);
  const after = settingsOf(afterConfig);
  const diff = changes(now, after);
  const single = diff.map(([k, from]) => withSettings(afterConfig, set(after, k, from)));

  // 3. compare, replaying every session through the full engine
  const stay = newGroup();
  const go = newGroup();
  const appear = newGroup();
  const agreed = { before: 0, after: 0, of: verdicts.length };
  const perChange = diff.map(() => ({ agrees: 0, disagrees: 0 }));
  const compared = new Set<string>();
  const sessions = new Set<string>();
  for (const run of input.runs()) {
    sessions.add(run.session);
    const index = indexRun(run);
    const was = stallsOf(run, replayRun(run, before), index);
    const is = stallsOf(run, replayRun(run, afterConfig), index);
    const located: Located[] = [];
    for (const v of bySession.get(run.session) ?? []) {
      if (compared.has(v.id)) continue;
      const region = locate(v, index);
      if (region) located.push({ verdict: v, region });
    }
    const verdictAt = (s: RunStall) => located.find((l) => inRegion(l.region, s))?.verdict;
    const matched = new Set<RunStall>();
    for (const b of was) {
      const a = is.find((x) => !matched.has(x) && sameStall(x, b));
      if (a) {
        matched.add(a);
        note(stay, run, a, verdictAt(b) ?? verdictAt(a));
      } else note(go, run, b, verdictAt(b));
    }
    for (const a of is) if (!matched.has(a)) note(appear, run, a, verdictAt(a));
    if (located.length === 0) continue;
    const singles = single.map((c) => stallsOf(run, replayRun(run, c), index));
    for (const l of located) {
      compared.add(l.verdict.id);
      const then = agreesIn(l, was);
      if (then) agreed.before++;
      const tuned = agreesIn(l, is);
      if (tuned) agreed.after++;
      singles.forEach((stalls, i) => {
        const without = agreesIn(l, stalls);
        if (tuned && !without) perChange[i]!.agrees++;
        if (!tuned && without) perChange[i]!.disagrees++;
      });
    }
  }
  // verdicts on sessions no longer readable count by their recorded signals
  verdicts.forEach((v, i) => {
    if (compared.has(v.id)) return;
    if (agreement([cases[i]!], now, base) === 1) agreed.before++;
    if (agreement([cases[i]!], after, base) === 1) agreed.after++;
  });

  const right = verdicts.filter((v) => v.verdict === 'right').length;
  const wrong = verdicts.length - right;
  const result: TuneResult = {
    verdicts: { right, wrong, found: found.size, recorded },
    settings: { before: now, after, prior },
    changes: diff.map(([knob, from, to], i) => ({ knob, from, to, ...perChange[i]! })),
    agreed,
    sessions: sessions.size,
    stay,
    go,
    appear,
    heldBySeed: seedHeld,
  };
  if (wrong >= WARN_MIN && wrong >= WARN_SHARE * verdicts.length)
    result.warning =
      `You marked ${wrong} of ${verdicts.length} interventions wrong. tune moves no setting more ` +
      `than ${MAX_STEPS} steps from the shipped value and never touches the seed floors (the same ` +
      'call 5 times, a cycle 5 times round) or the spawn guard, so stallguard does not go silent. ' +
      'If you meant "the agent was not stuck there", that is what wrong is for; if stallguard is ' +
      'of no use to you, STALLGUARD_MODE=off switches it off and stallguard uninstall removes it.';
  return result;
}
