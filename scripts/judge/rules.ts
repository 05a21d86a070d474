// Fits the judge as a set of per-signal thresholds: a signal at or above its threshold is a stall. The
// thresholds are chosen to catch as many labeled stuck segments as possible (weighted: real users' sessions
// double, high confidence over medium) while the healthy runs alarmed stay within a budget on every labeled
// set. Coordinate ascent over the signals, each given the threshold (or none) that helps most with the others
// held, until nothing changes, from several orders; where catches tie, fewer healthy alarms, then fewer healthy
// runs within one attempt of the level, then the level that sees more segments by itself, then the higher.
// Fast, because it scores on the signals each call saw with no window ever reset
// (extract.ts); the replay through the full engine then scores what the thresholds really do.
//
// The result is a JudgeModel in the noisy-OR form of src/judge/model.ts: one steep hinge per signal, so that
// the score is ~0 below the threshold and ~1 at it.
import type { SignalCode } from '../../src/types.ts';
import { type JudgeModel, levelModel } from '../../src/judge/model.ts';
import type { Trajectory } from './extract.ts';

/**
 * The thresholds tried for each signal; none (Infinity) means the signal decides nothing alone. A stall needs
 * three attempts of one strategy (the labeling guide's rule), so no threshold is below three; a re-read counts
 * the reads after the first, so two of them are three reads.
 */
const LEVELS = [3, 4, 5, 6, 8, Infinity];
const LEVELS_OF: Partial<Record<SignalCode, number[]>> = { REREAD: [2, ...LEVELS] };
const SOURCE_WEIGHT: Record<Trajectory['source'], number> = { users: 2, swe: 1 };

type Values = Partial<Record<SignalCode, number>>;

interface Prepared {
  /** Per segment: its weight and, per signal, the highest value seen at a step inside it. */
  segments: { weight: number; best: Values }[];
  /** Per healthy run: its set and, per signal, the highest value seen anywhere. */
  healthy: { source: string; best: Values }[];
  healthyPerSource: Map<string, number>;
}

function highest(steps: Trajectory['steps'], inside: (step: number) => boolean): Values {
  const best: Values = {};
  for (const s of steps)
    if (inside(s.step))
      for (const [c, v] of Object.entries(s.values) as [SignalCode, number][]) best[c] = Math.max(best[c] ?? 0, v);
  return best;
}

function prepare(ts: Trajectory[]): Prepared {
  const p: Prepared = { segments: [], healthy: [], healthyPerSource: new Map() };
  for (const t of ts) {
    for (const g of t.label.segments)
      p.segments.push({
        weight: SOURCE_WEIGHT[t.source] * (g.confidence === 'high' ? 1 : 0.6),
        best: highest(t.steps, (i) => i >= g.start && i <= g.end + 1),
      });
    if (t.label.overall !== 'healthy') continue;
    p.healthy.push({ source: t.source, best: highest(t.steps, () => true) });
    p.healthyPerSource.set(t.source, (p.healthyPerSource.get(t.source) ?? 0) + 1);
  }
  return p;
}

function fires(best: Values, rules: Map<SignalCode, number>): boolean {
  for (const [code, level] of rules) if ((best[code] ?? 0) >= level) return true;
  return false;
}

/** The weighted segments caught, or -1 when some set's healthy alarms go over budget; and the healthy runs alarmed. */
function objective(p: Prepared, rules: Map<SignalCode, number>, budget: number): { caught: number; alarmed: number } {
  const alarmed = new Map<string, number>();
  let all = 0;
  for (const h of p.healthy)
    if (fires(h.best, rules)) {
      alarmed.set(h.source, (alarmed.get(h.source) ?? 0) + 1);
      all++;
    }
  for (const [source, n] of alarmed)
    if (n > budget * p.healthyPerSource.get(source)!) return { caught: -1, alarmed: all };
  let caught = 0;
  for (const s of p.segments) if (fires(s.best, rules)) caught += s.weight;
  return { caught, alarmed: all };
}

/**
 * The healthy runs one signal comes within one attempt of alarming at a level: the margin a level keeps on the
 * healthy work the data has. A level that many healthy runs nearly reach alarms people never seen sooner.
 */
function nearly(p: Prepared, code: SignalCode, level: number): number {
  if (level === Infinity) return 0;
  let n = 0;
  for (const h of p.healthy) if ((h.best[code] ?? 0) >= level - 1) n++;
  return n;
}

/** The weighted segments one signal at one level catches by itself. */
function alone(p: Prepared, code: SignalCode, level: number): number {
  let caught = 0;
  for (const s of p.segments) if ((s.best[code] ?? 0) >= level) caught += s.weight;
  return caught;
}

/** Coordinate ascent from `start`, over the signals in `order`, until no single level change helps. */
function ascend(
  p: Prepared,
  order: readonly SignalCode[],
  budget: number,
  start: ReadonlyMap<SignalCode, number>,
): { rules: Map<SignalCode, number>; caught: number; alarmed: number } {
  const rules = new Map(start);
  let current = objective(p, rules, budget);
  for (let sweep = 0; sweep < 10; sweep++) {
    let changed = false;
    for (const code of order) {
      const kept = rules.get(code) ?? Infinity;
      let best = { level: kept, ...current, alone: alone(p, code, kept), nearly: nearly(p, code, kept) };
      for (const level of LEVELS_OF[code] ?? LEVELS) {
        if (level === kept) continue;
        const trial = new Map(rules);
        if (level === Infinity) trial.delete(code);
        else trial.set(code, level);
        const score = objective(p, trial, budget);
        if (score.caught < 0) continue;
        // Where the catches tie (other signals catch the same segments): the level with fewer healthy alarms; then
        // the one fewer healthy runs come within an attempt of (a margin on the healthy work of people never
        // seen); then the one that sees more segments by itself (a second witness for the stalls the data has,
        // at no cost it shows, rather than a signal that decides nothing for want of a segment only it sees);
        // then the higher level.
        const own = alone(p, code, level);
        const close = nearly(p, code, level);
        const tie = score.caught === best.caught && score.alarmed === best.alarmed;
        const better =
          score.caught > best.caught ||
          (score.caught === best.caught && score.alarmed < best.alarmed) ||
          (tie && close < best.nearly) ||
          (tie && close === best.nearly && (own > best.alone || (own === best.alone && level > best.level)));
        if (better) best = { level, ...score, alone: own, nearly: close };
      }
      if (best.level !== kept) {
        if (best.level === Infinity) rules.delete(code);
        else rules.set(code, best.level);
        current = { caught: best.caught, alarmed: best.alarmed };
        changed = true;
      }
    }
    if (!changed) break;
  }
  return { rules, ...current };
}

/** Orders of the signals tried: the given one and a fixed set of shuffles of it (a seeded generator). */
const RESTARTS = 24;

/**
 * The thresholds, chosen on `ts`, that catch the most within `budget` (a share of each set's healthy runs). The
 * `fixed` levels are set in advance and held while the others are chosen around them. Coordinate ascent finds a
 * local best that depends on the order the signals are tried in (the first to take the alarm budget keeps it), so
 * it runs from several orders and keeps the best: the most caught, then the fewest healthy alarms.
 */
export function fitRules(
  ts: Trajectory[],
  codes: readonly SignalCode[],
  budget: number,
  fixed: ReadonlyMap<SignalCode, number> = new Map(),
): Map<SignalCode, number> {
  const p = prepare(ts);
  const free = codes.filter((c) => !fixed.has(c));
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  let best: ReturnType<typeof ascend> | undefined;
  for (let r = 0; r <= RESTARTS; r++) {
    const order =
      r === 0
        ? free
        : free
            .map((c) => [random(), c] as const)
            .sort((a, b) => a[0] - b[0])
            .map(([, c]) => c);
    const found = ascend(p, order, budget, fixed);
    if (!best || found.caught > best.caught || (found.caught === best.caught && found.alarmed < best.alarmed))
      best = found;
  }
  return best!.rules;
}

/** Levels as a judge: one level-style model per signal (src/judge/model.ts levelModel). */
export function rulesModel(rules: Map<SignalCode, number>): JudgeModel {
  const model: JudgeModel = {};
  for (const [code, level] of rules) model[code] = levelModel(level);
  return model;
}
