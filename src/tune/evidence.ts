import type { Config, SignalCode } from '../types.ts';
import { reduce } from '../engine/engine.ts';
import { agentIn, initialState } from '../engine/state.ts';
import { readSignals } from '../judge/signals.ts';
import type { Run } from '../review/run.ts';
import type { Verdict } from '../store/verdicts.ts';
import { type Settings } from './settings.ts';

// What a verdict weighs for the fit: the strongest value each signal reached on the calls of the stretch the
// verdict is about, read with every stall switched off so that no window is ever reset (as
// scripts/judge/extract.ts reads the labeled corpora). Whether some settings would have stepped in there is
// then a comparison per signal, fast enough to try thousands of settings; the replay through the full
// engine (replayRun in tune.ts) says afterwards what the chosen ones really do.

export interface Summary {
  /** Per signal, the highest value on calls the judge weighs (not polls, not spawns). */
  judged: Partial<Record<SignalCode, number>>;
  /** Floors: the same call with the same outcome (not a poll), in a row. */
  repeat: number;
  /**
   * Polls' repeats, halved while the answer says the job is still under way (find-stall.ts gives those twice the room).
   */
  poll: number;
  cycle: number;
  failingRetry: number;
  noTreeChange: number;
  sameFailure: number;
}

export function emptySummary(): Summary {
  return { judged: {}, repeat: 0, poll: 0, cycle: 0, failingRetry: 0, noTreeChange: 0, sameFailure: 0 };
}

/** The settings that do not move, as fire() needs them. */
export interface Base {
  repeat: number;
  cycleRepeats: number;
  judge: boolean;
}

export function baseOf(config: Config): Base {
  return { repeat: config.repeat, cycleRepeats: config.cycleRepeats, judge: config.judge.enabled };
}

/** Whether settings would step in somewhere in the stretch a summary covers (the judge's signals one at a time). */
export function fires(s: Summary, st: Settings, base: Base): boolean {
  if (heldBySeed(s, base)) return true;
  if (
    s.poll >= st.floors.pollRepeat ||
    s.failingRetry >= st.floors.failRepeat ||
    s.noTreeChange >= st.floors.unchangedFailures ||
    s.sameFailure >= st.floors.sameFailures
  )
    return true;
  if (!base.judge) return false;
  for (const [code, v] of Object.entries(s.judged) as [SignalCode, number][]) {
    const level = st.levels[code];
    if (level !== undefined && level !== null && v >= level) return true;
  }
  return false;
}

/**
 * Whether a seed floor (the same call 5 times, a cycle 5 times
 * round) steps in there: no setting of tune's changes that.
 */
export function heldBySeed(s: Summary, base: Base): boolean {
  return s.repeat >= base.repeat || s.cycle >= base.cycleRepeats;
}

/** The config that sees every signal and decides nothing: no window is ever reset. */
function silent(config: Config): Config {
  const never = 1e9;
  return {
    ...config,
    repeat: never,
    pollRepeat: never,
    failRepeat: never,
    unchangedFailures: never,
    sameFailures: never,
    cycleRepeats: never,
    spawnCap: never,
    stopAfterRefusals: never,
    verifyBeforeStop: false,
    judge: { ...config.judge, enabled: false },
    llm: { ...config.llm, enabled: false, decide: false },
  };
}

/**
 * A stretch of one agent's calls, by ordinal, both ends included, and what counts as stepping in on it. A
 * stall marked right is caught by a stall flagged inside the stretch (`catch`); one marked wrong is flagged
 * again by any stall whose loop takes in a call of it (`loop`), however much later it is flagged: a retry
 * that goes on failing is still the same loop to the person who said it was none.
 */
export interface Region {
  agent: string;
  from: number;
  to: number;
  kind: 'catch' | 'loop';
}

/** Whether a stall flagged at `ordinal`, its loop starting at `start`, steps in on the region. */
export function onRegion(r: Region, ordinal: number, start: number): boolean {
  if (ordinal < r.from) return false;
  return r.kind === 'catch' ? ordinal <= r.to : start <= r.to;
}

/** The summaries of some regions of one run, read in one replay. */
export function summarize(run: Run, regions: Region[], config: Config): Summary[] {
  const out = regions.map(emptySummary);
  if (regions.length === 0) return out;
  const quiet = silent(config);
  const ordinals = new Map<string, number>();
  // where each call of a window sits among its agent's calls: where a signal's loop starts
  const ordinalOf = new WeakMap<object, number>();
  // a loop reaches back at most a window's length
  const reach = (r: Region) => (r.kind === 'catch' ? r.to : r.to + config.window);
  let state = initialState();
  for (const obs of run.observations) {
    state = reduce(state, obs, quiet).state;
    const step = obs.step;
    if (step.k !== 'call') continue;
    const agent = obs.agent.id;
    const ordinal = ordinals.get(agent) ?? 0;
    ordinals.set(agent, ordinal + 1);
    // calls that never enter the window are never where a stall is found (engine.ts observeCall)
    if (config.exemptTools.includes(step.tool) || step.cls === 'bookkeeping' || step.skipped) continue;
    const window = agentIn(state, agent)?.window ?? [];
    if (window.length > 0) ordinalOf.set(window.at(-1)!, ordinal);
    const inside = regions.flatMap((r, i) =>
      r.agent === agent && ordinal >= r.from && ordinal <= reach(r) ? [i] : [],
    );
    if (inside.length === 0) continue;
    const signals = readSignals(window, config.maxCycle).map((r) => {
      const first =
        r.code === 'CYCLE'
          ? ordinal - r.calls.length * r.value + 1
          : r.calls.length > 0
            ? (ordinalOf.get(r.calls[0]!) ?? ordinal)
            : ordinal;
      return { code: r.code, value: r.value, start: first };
    });
    for (const i of inside)
      add(
        out[i]!,
        signals.filter((x) => onRegion(regions[i]!, ordinal, x.start)),
        step.cls,
        step.waiting === true,
      );
  }
  return out;
}

function add(s: Summary, signals: { code: SignalCode; value: number }[], cls: string, waiting: boolean): void {
  const judged = cls !== 'poll' && cls !== 'spawn';
  for (const { code, value } of signals) {
    if (judged) s.judged[code] = Math.max(s.judged[code] ?? 0, value);
    if (code === 'REPEAT') {
      if (cls === 'poll') s.poll = Math.max(s.poll, waiting ? value / 2 : value);
      else s.repeat = Math.max(s.repeat, value);
    } else if (code === 'CYCLE') s.cycle = Math.max(s.cycle, value);
    else if (code === 'FAILING_RETRY') s.failingRetry = Math.max(s.failingRetry, value);
    else if (code === 'NO_TREE_CHANGE') s.noTreeChange = Math.max(s.noTreeChange, value);
    else if (code === 'SAME_FAILURE') s.sameFailure = Math.max(s.sameFailure, value);
  }
}

/** A verdict whose session can no longer be read, weighed by the signals recorded with it at the intervention. */
export function recordedSummary(v: Verdict): Summary {
  const s = emptySummary();
  add(s, v.signals, 'other', false);
  return s;
}
