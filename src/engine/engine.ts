import type { CallStep, Config, Decision, Observation } from '../types.ts';
import { ALLOW } from '../types.ts';
import { findStall, type Stall } from './find-stall.ts';
import { deniedRepeatMessage, nudgeMessage, stallStopReason, stoppedDenyMessage } from './messages.ts';
import { checkSpawn, describeSpawnTree, recordSpawn } from './spawn-guard.ts';
import {
  type AgentState,
  agentIn,
  endResponse,
  freshAgent,
  initialState,
  lastN,
  retireAgents,
  type State,
  withoutAgent,
} from './state.ts';
import type { JudgeModel } from '../judge/model.ts';
import { rememberCall } from './memory.ts';
import { checkStop } from './stop-gate.ts';
import { selfProtectMessage } from '../guard/message.ts';

// The engine: pure, no I/O. (state, observation, config) -> (state, decision). The hook, replay and the
// library all run this one function, so a replay of a ledger reproduces the decisions made live. It is
// blind to the mode: shadow and enforce differ only in whether the caller applies the decision.

export interface Result {
  state: State;
  decision: Decision;
}

function startTask(state: State, id: string | undefined): State {
  const tasks = state.tasks + 1;
  const agents: Record<string, AgentState> = {};
  for (const [aid, a] of Object.entries(state.agents)) agents[aid] = freshAgent(a.type);
  return { ...state, task: id ?? `t${tasks}`, tasks, agents, spawns: { count: 0, tree: {} } };
}

function withAgent(state: State, id: string, agent: AgentState): State {
  return { ...state, agents: { ...state.agents, [id]: agent } };
}

/**
 * Whether an agent holds a refusal for its next call before the call runs: it was stopped in this task, or its
 * very next call is checked against the loop just flagged. An agent that holds none has every call about to run
 * allowed (allowedUnlessHeld), so the hook records such a call without folding the session.
 */
export function holdsRefusal(agent: AgentState | undefined): boolean {
  return agent !== undefined && (agent.stopped !== undefined || agent.denyNext !== undefined);
}

/** A call about to run that touches none of stallguard's files: reduce() allows it unless its agent holds a refusal. */
export function allowedUnlessHeld(obs: Observation): boolean {
  return obs.step.k === 'pre' && !obs.step.guard;
}

export function reduce(prev: State, obs: Observation, config: Config, model?: JudgeModel): Result {
  let state = prev;
  const { step, agent: actor } = obs;
  // A new user prompt starts a new task: windows, counts and spawns start afresh. Where the agent gives
  // prompts an id, a main-agent event under a new id is a new task too (its prompt hook may have been missed).
  if (step.k === 'prompt') return { state: startTask(state, obs.task), decision: ALLOW };
  if (actor.id === 'main' && obs.task !== undefined && obs.task !== state.task) state = startTask(state, obs.task);
  const seen = (state.seen ?? 0) + 1;
  state = { ...retireAgents(state, obs.time, actor.id), seen };

  const known = agentIn(state, actor.id);
  const typed: AgentState = !known
    ? freshAgent(actor.type)
    : actor.type !== undefined && known.type === undefined
      ? { ...known, type: actor.type }
      : known;
  // how recently each agent was active, for retiring those that ended without a word
  const agent: AgentState = { ...typed, seen, ...(obs.time !== undefined ? { at: obs.time } : {}) };

  if (agent.stopped && step.k !== 'stop' && step.k !== 'end' && step.k !== 'start') {
    const decision: Decision = {
      action: 'stop',
      code: 'STOPPED',
      stopReason: agent.stopped.reason,
      message: stoppedDenyMessage(agent.stopped.reason),
      signals: [],
      repeat: true,
    };
    return { state: withAgent(state, actor.id, agent), decision };
  }

  switch (step.k) {
    case 'pre': {
      const { denyNext, ...rest } = agent;
      if (step.guard) {
        const decision: Decision = {
          action: 'deny',
          code: 'SELF_PROTECT',
          message: selfProtectMessage(step.guard),
          signals: [
            {
              code: 'SELF_PROTECT',
              value: 1,
              detail: step.guard.kind ? `${step.guard.kind}: ${step.guard.path}` : step.guard.path,
            },
          ],
        };
        return { state: withAgent(state, actor.id, rest), decision };
      }
      // only the very next call is checked against the loop just flagged
      if (denyNext?.keys.includes(step.key)) {
        return {
          state: withAgent(state, actor.id, rest),
          decision: { action: 'deny', code: 'REPEAT_DENIED', message: denyNext.message, signals: [] },
        };
      }
      return { state: withAgent(state, actor.id, denyNext ? rest : agent), decision: ALLOW };
    }

    case 'spawn': {
      const joins = !!agent.spawning;
      const verdict = checkSpawn(state.spawns, actor, config, joins);
      if (verdict.allowed)
        return {
          state: withAgent({ ...state, spawns: recordSpawn(state.spawns, actor, step.childType, joins) }, actor.id, {
            ...agent,
            spawning: true,
          }),
          decision: ALLOW,
        };
      // parallel spawns in one batch are refused together and count as one refusal: the agent has not yet
      // seen the first when the next arrives
      const refusals = agent.refusalUnseen ? agent.refusals : agent.refusals + 1;
      const totals = { ...state.totals, refusals: state.totals.refusals + 1 };
      const signals = verdict.signal ? [verdict.signal] : [];
      if (refusals >= config.stopAfterRefusals && !agent.refusalUnseen) {
        const reason = `spawn refused twice in this task; spawns: ${describeSpawnTree(state.spawns)}`;
        const next: AgentState = { ...agent, refusals, refusalUnseen: true, stopped: { reason } };
        return {
          state: withAgent({ ...state, totals }, actor.id, next),
          decision: { action: 'stop', code: 'SPAWN_STOP', stopReason: reason, message: verdict.message, signals },
        };
      }
      return {
        state: withAgent({ ...state, totals }, actor.id, { ...agent, refusals, refusalUnseen: true }),
        decision: { action: 'deny', code: 'SPAWN_REFUSED', message: verdict.message, signals },
      };
    }

    // where the agent's batches are known, its response ends with its batch (a refusal is seen, a round of spawns
    // closes): the result of another call of the same parallel batch (a replay feeds each call's result before the
    // next call) tells the agent nothing yet
    case 'call': {
      let caller = state.batched ? agent : endResponse(agent);
      // a refusal the agent has seen and moved on from, to work of its own, is behind it: a stop is for an agent
      // that asks again straight away, not for one more spawn much later (it is refused again, as the first was)
      if (!agent.refusalUnseen && agent.refusals > 0 && step.cls !== 'spawn') caller = { ...caller, refusals: 0 };
      if (obs.call !== undefined) {
        const done = agent.batchCalls ?? [];
        // the end of a batch lists every call again: one observed on its own already counted
        if (obs.late && done.includes(obs.call)) return { state: withAgent(state, actor.id, agent), decision: ALLOW };
        if (!obs.late) caller = { ...caller, batchCalls: lastN([...done, obs.call], 64) };
      }
      return observeCall(state, actor.id, caller, step, config, model);
    }

    case 'batch': {
      const next: AgentState = { ...endResponse(agent), batches: (agent.batches ?? 0) + 1 };
      delete next.batchCalls;
      return { state: withAgent(state.batched ? state : { ...state, batched: true }, actor.id, next), decision: ALLOW };
    }

    case 'stop': {
      const verdict = checkStop(agent, step, config, actor.id === 'main');
      // a subagent's stop that goes through is its end: its state leaves, and should it come back it starts fresh
      if (actor.id !== 'main' && verdict.decision.action !== 'nudge')
        return { state: withoutAgent(state, actor.id), decision: verdict.decision };
      return { state: withAgent(state, actor.id, verdict.agent), decision: verdict.decision };
    }

    case 'verdict': {
      const confident =
        config.llm.enabled && config.llm.decide && step.stuck && step.confidence >= config.llm.confidence;
      if (!confident || agent.window.length === 0) return { state: withAgent(state, actor.id, agent), decision: ALLOW };
      const calls = agent.window.slice(-3);
      const lead = {
        code: 'LLM_JUDGE' as const,
        value: step.confidence,
        calls,
        detail: step.repeating ? 'repeating a failed strategy, a model judged' : 'no progress, a model judged',
      };
      const stall: Stall = {
        lead,
        decider: 'LLM_JUDGE',
        signals: [{ code: 'LLM_JUDGE', value: step.confidence, detail: `progress ${step.progress}/10` }],
        strength: step.confidence,
        // the person let the model decide (llm.decide), and its confidence passed their bar
        sure: true,
        span: calls.length,
      };
      return declareStall(
        { ...state, totals: { ...state.totals, stalls: state.totals.stalls + 1 } },
        actor.id,
        agent,
        stall,
        config,
      );
    }

    default:
      return { state: withAgent(state, actor.id, agent), decision: ALLOW };
  }
}

function observeCall(
  state: State,
  id: string,
  prev: AgentState,
  step: CallStep,
  config: Config,
  model?: JudgeModel,
): Result {
  const totals = { ...state.totals, calls: state.totals.calls + 1 };
  // bookkeeping is neither work nor a loop, and a call that never ran is no attempt: neither enters the window
  if (config.exemptTools.includes(step.tool) || step.cls === 'bookkeeping' || step.skipped)
    return { state: withAgent({ ...state, totals }, id, prev), decision: ALLOW };
  // where the agent does not say which calls were issued together, each call is an attempt of its own
  const batch = state.batched ? (prev.batches ?? 0) : -totals.calls;
  const { next: memory, entry } = rememberCall(prev.memory, step, batch);
  const agent: AgentState = { ...prev, memory, window: lastN([...prev.window, entry], config.window) };
  // for the verify gate: code edits since the last verification run
  if (step.cls === 'test') agent.unverifiedEdits = 0;
  else if (step.cls === 'edit' && step.ok !== false && !step.doc)
    agent.unverifiedEdits = (prev.unverifiedEdits ?? 0) + 1;
  const stall = findStall(agent.window, config, model, agent.memory.runs);
  if (!stall) return { state: withAgent({ ...state, totals }, id, agent), decision: ALLOW };
  return declareStall({ ...state, totals: { ...totals, stalls: totals.stalls + 1 } }, id, agent, stall, config);
}

/** What a stall is about: its looping calls' keys and what they act on. */
function about(stall: Stall): { keys: string[]; intents: string[] } {
  const keys = [...new Set(stall.lead.calls.map((c) => c.key))];
  const intents = [...new Set(stall.lead.calls.flatMap((c) => c.intent ?? []))];
  return { keys: keys.slice(-8), intents: intents.slice(-8) };
}

/**
 * How a stall takes up a loop flagged before in the task: `calls` when it repeats one of its very calls, `intent`
 * when it acts again on one of the things they acted on, spelled otherwise.
 */
function resumes(
  flagged: AgentState['flagged'],
  now: { keys: string[]; intents: string[] },
): 'calls' | 'intent' | undefined {
  if (!flagged) return undefined;
  if (now.keys.some((k) => flagged.keys.includes(k))) return 'calls';
  return now.intents.some((i) => flagged.intents.includes(i)) ? 'intent' : undefined;
}

/**
 * The ladder: the first stall in a task nudges; the second stops when it takes up the loop already flagged (the
 * agent went back to it after the nudge): its very calls again, or the same thing spelled otherwise with evidence
 * that holds with one attempt fewer; a later one stops when it takes up any loop flagged before. A stall about
 * something else, or a variant that only just reaches its level, nudges again: the person is called in for a loop
 * the agent would not leave, not for weak signs each about another thing.
 */
function declareStall(state: State, id: string, agent: AgentState, stall: Stall, config: Config): Result {
  // the window starts afresh, so the next stall is a new one and not this one seen again
  const stalls = agent.stalls + 1;
  const span = stall.span;
  const loop = about(stall);
  const flagged = agent.flagged
    ? {
        keys: [...agent.flagged.keys, ...loop.keys].slice(-16),
        intents: [...agent.flagged.intents, ...loop.intents].slice(-16),
      }
    : loop;
  if (
    stalls >= config.stopAfterStalls &&
    (stalls === 1 ||
      (stalls > config.stopAfterStalls && resumes(agent.flagged, loop) !== undefined) ||
      (stall.strength >= config.judge.stopThreshold &&
        (resumes(agent.flagged, loop) === 'calls' || (stall.sure && resumes(agent.flagged, loop) === 'intent'))))
  ) {
    const reason = stallStopReason(stall);
    const next: AgentState = { ...agent, window: [], stalls, flagged, stopped: { reason } };
    return {
      state: withAgent(state, id, next),
      decision: {
        action: 'stop',
        code: 'STALL_AGAIN',
        stopReason: reason,
        message: stoppedDenyMessage(reason),
        signals: stall.signals,
        span,
      },
    };
  }
  const next: AgentState = { ...agent, window: [], stalls, flagged };
  if (stall.strength >= config.judge.denyThreshold)
    next.denyNext = { keys: [...new Set(stall.lead.calls.map((c) => c.key))], message: deniedRepeatMessage(stall) };
  return {
    state: withAgent(state, id, next),
    decision: { action: 'nudge', code: 'STALL', message: nudgeMessage(stall), signals: stall.signals, span },
  };
}

export { initialState };
