import type { CallStep, Config, Decision, DecisionCode, Observation } from '../types.ts';
import type { JudgeModel } from '../judge/model.ts';
import { reduce } from '../engine/engine.ts';
import { initialState } from '../engine/state.ts';
import { loopForm } from '../scan/loop-form.ts';
import { CallCounter, type CallRef } from '../core/call-ref.ts';

// A recorded session, or one file of it, as review and tune read it: its observations in order, and the
// decisions made on them, recorded live (the ledger) or made again by replaying it through the engine under
// some settings. Pure: the files are read elsewhere (collect.ts).

export interface Recorded {
  decision: Decision;
  /** The mode a decision recorded live was made in: shadow or enforce. */
  mode?: string;
  time?: number;
}

export interface Run {
  session: string;
  /** The ledger (what stallguard decided live), or the agent's own history (what it would have decided). */
  source: 'ledger' | 'scan';
  file: string;
  /** The agent that ran the session: claude, codex, gemini, ... */
  agentName: string;
  cwd?: string;
  /** The session's latest activity, ms since the epoch, when known. */
  time?: number;
  observations: Observation[];
  /** For each observation, the 0-based index of the tool call it belongs to (as `scan` and `report` number calls). */
  steps: number[];
  /** The decisions recorded live, by observation index (ledger runs). */
  recorded?: Map<number, Recorded>;
}

/** One call of one agent, with where it sits in the run. */
export interface AgentCall {
  /** Index of its observation in the run. */
  index: number;
  step: number;
  call: CallStep;
  ref: CallRef;
  /** Which task (user prompt) of the run it belongs to. */
  task: number;
}

export interface RunIndex {
  /** Per agent, its calls in order: a call's position here is its ordinal. */
  calls: Map<string, AgentCall[]>;
  /** Observation index -> [agent, ordinal] of its call, or of the agent's latest call before it. */
  at: Map<number, [string, number]>;
}

export function indexRun(run: Run): RunIndex {
  const calls = new Map<string, AgentCall[]>();
  const at = new Map<number, [string, number]>();
  const counter = new CallCounter();
  let task = 0;
  let taskId: string | undefined;
  run.observations.forEach((obs, index) => {
    if (obs.step.k === 'prompt' || (obs.agent.id === 'main' && obs.task !== undefined && obs.task !== taskId)) {
      task++;
      if (obs.task !== undefined) taskId = obs.task;
    }
    const ref = counter.next(obs);
    let list = calls.get(obs.agent.id);
    if (ref && obs.step.k === 'call') {
      if (!list) {
        list = [];
        calls.set(obs.agent.id, list);
      }
      list.push({ index, step: run.steps[index] ?? 0, call: obs.step, ref, task });
    }
    if (list && list.length > 0) at.set(index, [obs.agent.id, list.length - 1]);
  });
  return { calls, at };
}

/** The decisions a replay of the run under `config` makes, by observation index (interventions only). */
export function replayRun(run: Run, config: Config, model?: JudgeModel): Map<number, Recorded> {
  const out = new Map<number, Recorded>();
  let state = initialState();
  run.observations.forEach((obs, i) => {
    const r = reduce(state, obs, config, model);
    state = r.state;
    if (r.decision.action !== 'allow' && !r.decision.repeat) out.set(i, { decision: r.decision });
  });
  return out;
}

const STALL_CODES: readonly DecisionCode[] = ['STALL', 'STALL_AGAIN'];

/** A stall of a run: where it was flagged, the loop it saw, and what the agent did after it. */
export interface RunStall {
  index: number;
  step: number;
  agent: string;
  /** The flagged call's position among the agent's calls. */
  ordinal: number;
  ref: CallRef;
  action: Decision['action'];
  code: DecisionCode;
  decision: Decision;
  mode?: string;
  time?: number;
  /** The agent's calls in the loop, the flagged one last. */
  span: number;
  /**
   * The agent's calls right after the flagged one that went on with
   * the loop: calls of the loop again, whatever they answered.
   */
  more: number;
  /** The loop in short form: `Bash npm test` x5. */
  loop: string;
  /** The distinct calls of the loop, in short form. */
  calls: string[];
}

/**
 * The stalls among `decisions` (nudges and stops for a loop; refused spawns, self-protection and the
 * verify gate are no stall, and a setting of the judge changes none of them).
 */
export function stallsOf(run: Run, decisions: Map<number, Recorded>, index: RunIndex = indexRun(run)): RunStall[] {
  const out: RunStall[] = [];
  for (const [i, r] of [...decisions].sort((a, b) => a[0] - b[0])) {
    const d = r.decision;
    if (!d.code || !STALL_CODES.includes(d.code) || d.repeat) continue;
    const where = index.at.get(i);
    if (!where) continue;
    const [agent, ordinal] = where;
    const list = index.calls.get(agent)!;
    const flagged = list[ordinal]!;
    let first = ordinal;
    while (first > ordinal - (d.span ?? 1) + 1 && first > 0 && list[first - 1]!.task === flagged.task) first--;
    const loop = list.slice(first, ordinal + 1);
    // a failing retry goes on failing with another message: the loop goes on while its calls do
    const keys = new Set(loop.map((c) => c.call.key));
    let more = 0;
    while (
      list[ordinal + 1 + more] &&
      list[ordinal + 1 + more]!.task === flagged.task &&
      keys.has(list[ordinal + 1 + more]!.call.key)
    )
      more++;
    out.push({
      index: i,
      step: flagged.step,
      agent,
      ordinal,
      ref: flagged.ref,
      action: d.action,
      code: d.code,
      decision: d,
      ...(r.mode ? { mode: r.mode } : {}),
      ...(r.time ? { time: r.time } : {}),
      span: loop.length,
      more,
      loop: loopForm(loop.map((c) => c.call)),
      calls: [...new Set(loop.map((c) => c.call.short))],
    });
  }
  return out;
}
