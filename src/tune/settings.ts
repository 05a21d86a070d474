import type { Config, SignalCode } from '../types.ts';
import { SHIPPED_MODEL } from '../engine/find-stall.ts';
import { LEVEL_SIGNALS, TUNED_FLOORS } from '../config/validate.ts';

// What tune may change, and how far. The per-signal levels of the judge (a signal at or above its level is
// a stall by itself; none: it decides nothing alone) and the thresholds of the failure floors and the poll
// floor. Never the seed floors (the same call 5 times, a cycle going round 5 times: `repeat`,
// `cycleRepeats`), the spawn guard, the ladder from nudge to stop, or the mode. Each setting moves along
// a ladder of values, at most MAX_STEPS from the shipped value, so that no set of verdicts can make
// stallguard silent.

export const FLOORS = TUNED_FLOORS;
export type Floor = (typeof FLOORS)[number];

/** Steps along its ladder a setting may move away from the shipped value. */
export const MAX_STEPS = 3;

/** A level, or null: the signal decides nothing alone. */
export type Level = number | null;

export interface Settings {
  levels: Partial<Record<SignalCode, Level>>;
  floors: Record<Floor, number>;
}

/** A setting by name: `judge.levels.REREAD`, `failRepeat`. */
export type Knob = { name: string; kind: 'level'; code: SignalCode } | { name: string; kind: 'floor'; field: Floor };

// A stall needs three attempts of one strategy (the labeling guide's rule); a re-read counts the reads after
// the first, so its level 2 is three reads
const LEVEL_LADDER: Level[] = [3, 4, 5, 6, 8, 10, 12, null];
const REREAD_LADDER: Level[] = [2, ...LEVEL_LADDER];
const FLOOR_LADDERS: Record<Floor, number[]> = {
  failRepeat: [3, 4, 5, 6, 8, 10, 12],
  unchangedFailures: [3, 4, 5, 6, 8, 10],
  sameFailures: [3, 4, 5, 6, 8, 10, 12],
  pollRepeat: [5, 6, 8, 10, 15, 20, 30, 40],
};

/**
 * The shipped judge's level for a signal: its hinge's knot + 1
 * (judge/model.ts levelModel), null when the judge has no part for it.
 */
function shippedLevel(code: SignalCode): Level | undefined {
  const m = SHIPPED_MODEL[code];
  if (!m) return null;
  // a part of another shape (a judge fitted otherwise) has no level to move: tune leaves it
  return m.hinges.length === 1 ? m.hinges[0]!.knot + 1 : undefined;
}

/** The settings tune can move, in the order it tries them. */
export const KNOBS: Knob[] = [
  ...(LEVEL_SIGNALS as SignalCode[])
    .filter((code) => shippedLevel(code) !== undefined)
    .map((code): Knob => ({ name: `judge.levels.${code}`, kind: 'level', code })),
  ...FLOORS.map((field): Knob => ({ name: field, kind: 'floor', field })),
];

export function get(s: Settings, k: Knob): Level {
  return k.kind === 'level' ? (s.levels[k.code] ?? null) : s.floors[k.field];
}

export function set(s: Settings, k: Knob, v: Level): Settings {
  if (k.kind === 'level') return { ...s, levels: { ...s.levels, [k.code]: v } };
  return { ...s, floors: { ...s.floors, [k.field]: v as number } };
}

/** A knob's ladder, with `also` on it where a hand-set value falls between its steps. */
export function ladder(k: Knob, ...also: Level[]): Level[] {
  const base = k.kind === 'floor' ? FLOOR_LADDERS[k.field] : k.code === 'REREAD' ? REREAD_LADDER : LEVEL_LADDER;
  const all = [...new Set([...base, ...also])];
  return all.sort((a, b) => (a === null ? 1 : b === null ? -1 : a - b));
}

/** The settings in force under a config: its levels over the shipped judge's, and its floors. */
export function settingsOf(config: Config): Settings {
  const levels: Settings['levels'] = {};
  for (const k of KNOBS)
    if (k.kind === 'level')
      levels[k.code] =
        config.judge.levels && k.code in config.judge.levels
          ? (config.judge.levels[k.code] ?? null)
          : (shippedLevel(k.code) ?? null);
  return {
    levels,
    floors: {
      failRepeat: config.failRepeat,
      unchangedFailures: config.unchangedFailures,
      sameFailures: config.sameFailures,
      pollRepeat: config.pollRepeat,
    },
  };
}

/** A config with these settings in force. */
export function withSettings(config: Config, s: Settings): Config {
  return { ...config, ...s.floors, judge: { ...config.judge, levels: { ...config.judge.levels, ...s.levels } } };
}

/** The settings that differ between two sets, as [knob, from, to]. */
export function changes(from: Settings, to: Settings): [Knob, Level, Level][] {
  return KNOBS.filter((k) => get(from, k) !== get(to, k)).map((k) => [k, get(from, k), get(to, k)]);
}

/** A config file's content that sets `to` where it differs from `beneath`. */
export function layerContent(
  beneath: Settings,
  to: Settings,
): { judge?: { levels: Partial<Record<SignalCode, Level>> } } & Partial<Record<Floor, number>> {
  const out: { judge?: { levels: Partial<Record<SignalCode, Level>> } } & Partial<Record<Floor, number>> = {};
  for (const [k, , v] of changes(beneath, to)) {
    if (k.kind === 'floor') out[k.field] = v as number;
    else {
      out.judge ??= { levels: {} };
      out.judge.levels[k.code] = v;
    }
  }
  return out;
}

/** How a setting reads to a person: `none` for a level that decides nothing alone. */
export function shown(v: Level): string {
  return v === null ? 'none' : String(v);
}
