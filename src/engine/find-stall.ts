import type { Config, Entry, SignalCode, SignalHit } from '../types.ts';
import type { SignalResult } from '../detect/signal.ts';
import type { JudgeModel } from '../judge/model.ts';
import { scoreSignals, withLevels } from '../judge/model.ts';
import { readSignals } from '../judge/signals.ts';
import MODEL from '../judge/weights.json' with { type: 'json' };

export interface Stall {
  /** The signal that names the loop in messages: the floor that fired, or the judge's strongest. */
  lead: SignalResult;
  /** The signal that decided there is a stall: the floor that fired, or the one the judge weighed most. */
  decider: SignalCode;
  /** How many times the looping call ran in this task, when the loop is one call (the window may hold fewer). */
  times?: number;
  /** Every signal that saw something, with its value, and the judge's score: the record of why. */
  signals: SignalHit[];
  /** 1 for the deterministic floor, else the judge's score. */
  strength: number;
  /**
   * A floor, or a judge's stall that holds with one attempt fewer (the deciding signal one weaker still reaches a
   * floor or the threshold). A judge's stall that only just reaches its level is enough to nudge, not to stop.
   */
  sure: boolean;
  /** How many of the latest calls the loop covers, from its first call to now. */
  span: number;
}

function spanOf(window: readonly Entry[], lead: SignalResult): number {
  if (lead.code === 'CYCLE') return lead.calls.length * lead.value;
  const first = lead.calls.length > 0 ? window.indexOf(lead.calls[0]!) : -1;
  return first === -1 ? 1 : window.length - first;
}

/** The latest calls asked whether the task is still learning (calls, not detect/recent.ts's batches). */
const LEARNING_CALLS = 8;
/**
 * New lines that make an answer news: two, where FRUITLESS's told() takes one, since a single new line (a count,
 * a path) is what a retry shows as often as exploration does; at one, a design segment was lost.
 */
const NEWS_LINES = 2;

/**
 * Whether most of the latest calls came back without failing and told the task lines it had not seen:
 * exploration, however alike its calls look, and not a loop. Only the judge's weighing of signals defers to it;
 * the floors are rules. A failure is no news, however it is worded: attempts at one thing failing with
 * error text that differs each time (a localised message, a banner) are still a loop.
 */
function learning(window: readonly Entry[]): boolean {
  let news = 0;
  const from = Math.max(0, window.length - LEARNING_CALLS);
  for (let i = from; i < window.length; i++)
    if (window[i]!.ok !== false && (window[i]!.fresh ?? 0) >= NEWS_LINES) news++;
  return news * 2 > window.length - from;
}

/**
 * Whether the latest call, a poll, looks at what an action did since the same poll last looked: it checks the
 * action (`kill ...; npm run dev &`, then `sleep 3 && curl`), as a test run checks an edit, and is no mere wait.
 */
function checksAction(window: readonly Entry[]): boolean {
  const last = window.at(-1)!;
  for (let i = window.length - 2; i >= 0; i--) {
    const e = window[i]!;
    if (e.cls === 'poll' && e.key === last.key) return false;
    if (e.cls === 'exec' && e.ok !== false) return true;
  }
  return false;
}

/** Causes no wait cures: a program that is not there, a permission, credentials refused, a call written wrong. */
const UNCURED = new Set(['command-not-found', 'permission', 'auth']);

/**
 * Whether a poll failed for a cause waiting cannot cure (`docker ps` refused the daemon's socket,
 * `gh run list` not logged in): asked again, it is retried, not waited on. A server still starting is refused or
 * answers 5xx, and is waited on.
 */
function waitingCannotCure(last: Entry): boolean {
  return last.ok === false && (last.malformed === true || UNCURED.has(last.cause ?? ''));
}

export const SHIPPED_MODEL = MODEL as JudgeModel;

const withLevelsOf = new WeakMap<object, JudgeModel>();

/** The judge a config asks for: the given model, with the config's own signal levels over it. */
function judgeOf(model: JudgeModel, config: Config): JudgeModel {
  const levels = config.judge.levels;
  if (!levels || Object.keys(levels).length === 0) return model;
  let m = model === SHIPPED_MODEL ? withLevelsOf.get(levels) : undefined;
  if (!m) {
    m = withLevels(model, levels);
    if (model === SHIPPED_MODEL) withLevelsOf.set(levels, m);
  }
  return m;
}

/** The signals as recorded in a decision: the lead first (the one the message names), the judge's score last. */
function hits(lead: SignalResult, signals: readonly SignalResult[], score: number | undefined): SignalHit[] {
  const out: SignalHit[] = [lead, ...signals.filter((s) => s !== lead)].map((s) => ({
    code: s.code,
    value: s.value,
    detail: s.detail,
  }));
  if (score !== undefined) out.push({ code: 'JUDGE', value: Math.round(score * 1000) / 1000 });
  return out;
}

/**
 * Whether the agent's latest call completes a stall. The deterministic floors are always a stall: the seed
 * rule (the same call with the same outcome `repeat` times, or one cycle of 2..maxCycle calls going round
 * `cycleRepeats` times); the same call failing `failRepeat` times with nothing changed in between
 * (OpenHands' repeating-action-error rule); and test, build or script runs failing the same way
 * `unchangedFailures` times with nothing changed in between (retry variants: `pytest -q`, `pytest tests/`,
 * `python -m pytest`); and any calls failing the same way `sameFailures` times. No healthy trajectory of
 * the labeled corpus reaches any of the last three at their defaults. Beyond the floors the judge's stuck
 * score decides.
 */
/** How many times in a row this task the loop's call ran with its outcome, when the loop is that one call. */
function timesRun(
  lead: SignalResult,
  runs: Readonly<Record<string, [string, number]>> | undefined,
): number | undefined {
  const last = lead.calls.at(-1);
  if (!last || lead.code === 'CYCLE' || lead.calls.some((c) => c.key !== last.key)) return undefined;
  const run = runs?.[last.key];
  return run && run[0] === last.out && run[1] > lead.calls.length ? run[1] : undefined;
}

export function findStall(
  window: readonly Entry[],
  config: Config,
  model: JudgeModel = SHIPPED_MODEL,
  runs?: Readonly<Record<string, [string, number]>>,
): Stall | undefined {
  const signals = readSignals(window, config.maxCycle);
  if (signals.length === 0) return undefined;
  const cls = window.at(-1)?.cls;
  // waiting on something that runs elsewhere gets far more room
  // than a retry, and most while it says it is still under way
  const repeat = cls === 'poll' ? config.pollRepeat * (window.at(-1)!.waiting ? 2 : 1) : config.repeat;
  const floorOf = (list: readonly SignalResult[]) =>
    list.find(
      (s) =>
        (s.code === 'REPEAT' && s.value >= repeat) ||
        (s.code === 'CYCLE' && s.value >= config.cycleRepeats) ||
        (s.code === 'FAILING_RETRY' && s.value >= config.failRepeat) ||
        (s.code === 'NO_TREE_CHANGE' && s.value >= config.unchangedFailures) ||
        (s.code === 'SAME_FAILURE' && s.value >= config.sameFailures),
    );
  // The judge does not look at polls (waiting is no retry), unless the poll checks an action taken since the
  // last look (a restart, each time refused alike) or failed as no wait can mend; nor at spawns, which have their
  // own guard (a cap and a depth rule): an orchestrator fanning out similar subagents is healthy work its
  // near-duplicate signals would misread.
  const judging =
    config.judge.enabled &&
    cls !== 'spawn' &&
    (cls !== 'poll' || checksAction(window) || waitingCannotCure(window.at(-1)!));
  const judgeScore = (list: readonly SignalResult[]) => scoreSignals(list, judgeOf(model, config));
  /** Whether the judge's stall holds with the deciding signal one attempt weaker. */
  const holdsWeaker = (decider: SignalCode) => {
    const weaker = signals.map((s) => (s.code === decider ? { ...s, value: s.value - 1 } : s));
    return !!floorOf(weaker) || judgeScore(weaker).score >= config.judge.threshold;
  };
  const floor = floorOf(signals);
  const judged = judging ? judgeScore(signals) : undefined;
  // exact repeats and cycles name the loop most concretely, whichever rule declared the stall
  const concrete = signals.find((s) => s.code === 'REPEAT' && s.value >= 3) ?? signals.find((s) => s.code === 'CYCLE');
  if (floor) {
    const lead = floor.code === 'CYCLE' || !concrete ? floor : concrete;
    return withTimes(
      {
        lead,
        decider: floor.code,
        signals: hits(lead, signals, judged?.score),
        strength: 1,
        // a deterministic floor is the documented rule: the second stall it finds in the loop stops the agent
        sure: true,
        span: spanOf(window, lead),
      },
      runs,
    );
  }
  if (!judged || judged.score < config.judge.threshold || learning(window)) return undefined;
  let strongest = signals[0]!;
  for (const s of signals)
    if ((judged.contributions[s.code] ?? 0) > (judged.contributions[strongest.code] ?? 0)) strongest = s;
  const lead = concrete ?? strongest;
  const sure = holdsWeaker(strongest.code);
  return withTimes(
    {
      lead,
      decider: strongest.code,
      signals: hits(lead, signals, judged.score),
      strength: judged.score,
      sure,
      span: spanOf(window, lead),
    },
    runs,
  );
}

function withTimes(stall: Stall, runs: Readonly<Record<string, [string, number]>> | undefined): Stall {
  const times = timesRun(stall.lead, runs);
  return times === undefined ? stall : { ...stall, times };
}
