import { type Base, fires, heldBySeed, type Summary } from './evidence.ts';
import { type Floor, get, type Knob, KNOBS, ladder, type Level, MAX_STEPS, set, type Settings } from './settings.ts';

// The fit: settings that agree with as many of the person's verdicts as they can, pulled towards the
// settings they have now (the prior: the shipped judge and floors, unless a layer beneath says otherwise).
// Each verdict counts 1: a stall marked right agrees when the settings still step in on its stretch, one
// marked wrong when they no longer do. Moving a setting k steps along its ladder away from the prior costs
// k(k+1)/2 (1, 3, 6): one verdict alone never moves anything, two agreeing verdicts move a setting one step,
// and each further step needs more of them. No setting moves more than MAX_STEPS from the shipped value.
// A search over the settings like the judge's own fit (scripts/judge/rules.ts), on the person's verdicts
// instead of the labeled corpus.

export interface Case {
  answer: 'right' | 'wrong';
  summary: Summary;
}

export function agrees(c: Case, s: Settings, base: Base): boolean {
  return fires(c.summary, s, base) === (c.answer === 'right');
}

export function agreement(cases: readonly Case[], s: Settings, base: Base): number {
  let n = 0;
  for (const c of cases) if (agrees(c, s, base)) n++;
  return n;
}

export interface FitInput {
  cases: readonly Case[];
  /** Where the fit starts and what it is pulled towards. */
  prior: Settings;
  /** What the bounds are measured from. */
  shipped: Settings;
  /** Settings a file above the layer being fitted sets by hand: left as they are. */
  fixed: ReadonlySet<string>;
  base: Base;
}

function steps(k: Knob, a: Level, b: Level, prior: Settings, shipped: Settings): number {
  const l = ladder(k, get(prior, k), get(shipped, k));
  return Math.abs(l.indexOf(a) - l.indexOf(b));
}

/**
 * The values a setting may take: within MAX_STEPS of the shipped value on its ladder (and the prior, wherever
 * it is); never none for a signal the shipped judge uses: tune switches no signal off.
 */
export function allowed(k: Knob, prior: Settings, shipped: Settings): Level[] {
  const l = ladder(k, get(prior, k), get(shipped, k));
  const at = l.indexOf(get(shipped, k));
  return l.filter(
    (v, i) => v === get(prior, k) || (Math.abs(i - at) <= MAX_STEPS && (v !== null || get(shipped, k) === null)),
  );
}

function priorCost(s: Settings, input: Pick<FitInput, 'prior' | 'shipped'>): number {
  let cost = 0;
  for (const k of KNOBS) {
    const n = steps(k, get(s, k), get(input.prior, k), input.prior, input.shipped);
    cost += (n * (n + 1)) / 2;
  }
  return cost;
}

/**
 * The moves that would stop the settings from stepping in on one stall marked wrong: every setting by which
 * it fires raised just past the value its stretch reached. One such stall often fires by several signals
 * at once (four identical reads are a repeat, a near-duplicate and a re-read), so no single setting alone
 * changes anything there, and a search one setting at a time would never find the move.
 */
function silence(c: Case, s: Settings, input: FitInput, knobs: readonly Knob[]): Settings | undefined {
  if (heldBySeed(c.summary, input.base)) return undefined;
  let out = s;
  for (const k of KNOBS) {
    const v = get(s, k);
    if (v === null) continue;
    const reached =
      k.kind === 'level' ? (input.base.judge ? (c.summary.judged[k.code] ?? 0) : 0) : floorValue(c.summary, k.field);
    if (reached < v) continue;
    if (!knobs.includes(k)) return undefined;
    const past = allowed(k, input.prior, input.shipped).find((x) => x === null || x > reached);
    if (past === undefined) return undefined;
    out = set(out, k, past);
  }
  return out === s ? undefined : out;
}

function floorValue(s: Case['summary'], field: Floor): number {
  return field === 'pollRepeat'
    ? s.poll
    : field === 'failRepeat'
      ? s.failingRetry
      : field === 'unchangedFailures'
        ? s.noTreeChange
        : s.sameFailure;
}

/**
 * Hill-climbing from the prior: at each step the best of every one-setting move and every move that
 * silences one stall marked wrong, taken while it raises agreement minus the prior's cost (or keeps it and
 * costs less); a stall marked right is kept by a one-setting move.
 */
export function fit(input: FitInput): Settings {
  const { cases, prior, shipped, fixed, base } = input;
  const knobs = KNOBS.filter((k) => !fixed.has(k.name) && (k.kind === 'floor' || base.judge));
  const cost = (s: Settings) => priorCost(s, input);
  const score = (s: Settings) => agreement(cases, s, base) - cost(s);
  let current = prior;
  let best = { score: score(current), cost: cost(current) };
  for (let round = 0; round < 200; round++) {
    const candidates: Settings[] = [];
    for (const k of knobs)
      for (const v of allowed(k, prior, shipped)) if (v !== get(current, k)) candidates.push(set(current, k, v));
    for (const c of cases)
      if (c.answer === 'wrong' && !agrees(c, current, base)) {
        const move = silence(c, current, input, knobs);
        if (move) candidates.push(move);
      }
    let next: { s: Settings; score: number; cost: number } | undefined;
    for (const s of candidates) {
      const trial = { s, score: score(s), cost: cost(s) };
      const better = (a: { score: number; cost: number }, b: { score: number; cost: number }) =>
        a.score > b.score || (a.score === b.score && a.cost < b.cost);
      if (better(trial, next ?? best)) next = trial;
    }
    if (!next) break;
    current = next.s;
    best = { score: next.score, cost: next.cost };
  }
  return current;
}
