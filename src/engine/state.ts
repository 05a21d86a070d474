import type { Entry } from '../types.ts';

// What the engine remembers about one session. Everything here is bounded: windows are cut to the
// configured length, memories are capped, and only live agents are kept (retireAgents), so the cost of a
// call grows neither with the session's length nor with the number of subagents it has run.

export interface AgentState {
  type?: string;
  /** The latest calls of this agent in this task, since the last stall. */
  window: Entry[];
  /** Batches of parallel calls this agent has finished in this task. */
  batches?: number;
  /** The calls of the open batch observed on their own (Observation.call): its end's list skips them. */
  batchCalls?: string[];
  /** Stalls declared in this task. */
  stalls: number;
  /** Spawn refusals in this task, counted once per batch of parallel calls. */
  refusals: number;
  /** A refusal the agent has not yet seen: set when a spawn is refused, cleared when its response ends. */
  refusalUnseen?: boolean;
  /** The agent's open response has started subagents: its further spawns join that round of delegation. */
  spawning?: boolean;
  /** Set once the agent is stopped in this task; every later tool call is refused with it. */
  stopped?: { reason: string };
  /** Task-wide memory for signals that look further back than the window. */
  memory: SignalMemory;
  /** The loop just flagged: the next call, if it repeats one of these, is denied with the message. */
  denyNext?: { keys: string[]; message: string };
  /** What this task's stalls were about (the looping calls' keys and intents): a loop resumed, or a new one. */
  flagged?: { keys: string[]; intents: string[] };
  /** Whether the agent was already sent back once at a stop in this task (the verify gate). */
  verifySent?: boolean;
  /** Successful edits since the last verification run (test, build, lint), for the verify gate. */
  unverifiedEdits?: number;
  /** The session's observation count (State.seen) at this agent's latest observation: how recently it was active. */
  seen?: number;
  /** The time of its latest observation, when observations carry times. */
  at?: number;
}

/** Bounded task-wide memory. */
export interface SignalMemory {
  /** Successful edits seen in this task. */
  edits: number;
  /** Outcome digests of reads, most recent last. */
  reads: string[];
  /** Working-tree (or file-state) fingerprints paired with the failure seen there, most recent last. */
  states: string[];
  /** Digests of the agent's closing texts. */
  texts: string[];
  /** Hashes of the outcome lines seen in this task, most recent last (bounded). */
  lines?: number[];
  /**
   * For the recent calls (by key), their latest outcome and how many times in a row this task they ran with
   * it: a message names the real count, though a nudge emptied the window since.
   */
  runs?: Record<string, [out: string, times: number]>;
  /**
   * The files read lately, each with the region and outcome of its latest read and the changes made since that
   * could have reached it (successful edits of it or of no named file, code run inline), most recent last.
   */
  views?: [target: string, region: string, out: string, changes: number][];
}

export interface SpawnState {
  /** Subagents started in this task. */
  count: number;
  /**
   * Rounds of delegation in this task: the spawns one response asks for are one round, as a batch of parallel
   * calls is one attempt. Absent in states written before rounds were counted: their count stands in.
   */
  rounds?: number;
  /** parent agent id -> child type -> spawns */
  tree: Record<string, Record<string, number>>;
}

export interface State {
  v: 1;
  /** The current task's id: the agent's prompt id, or a counter. */
  task: string;
  tasks: number;
  agents: Record<string, AgentState>;
  spawns: SpawnState;
  totals: { calls: number; stalls: number; refusals: number };
  /** Observations folded so far (absent in states written before agents were retired). */
  seen?: number;
  /** The agent tells where its batches of parallel calls end (a batch end was seen): calls are grouped by batch. */
  batched?: boolean;
}

export function initialState(): State {
  return {
    v: 1,
    task: 't0',
    tasks: 0,
    agents: {},
    spawns: { count: 0, tree: {} },
    totals: { calls: 0, stalls: 0, refusals: 0 },
  };
}

export function freshAgent(type?: string): AgentState {
  const a: AgentState = { window: [], stalls: 0, refusals: 0, memory: { edits: 0, reads: [], states: [], texts: [] } };
  if (type !== undefined) a.type = type;
  return a;
}

/** Subagents kept at most: past that, the least recently active leaves (it may have ended unseen). */
export const MAX_LIVE_SUBAGENTS = 32;
/**
 * A subagent with no observation for this long has ended (its
 * SubagentStop may never come: a killed agent, an older install).
 */
export const SUBAGENT_IDLE_MS = 30 * 60_000;

/**
 * The state without the subagents that have ended unseen: idle past SUBAGENT_IDLE_MS, or beyond the
 * MAX_LIVE_SUBAGENTS most recently active, counting the one `acting` now, which always stays (as does the
 * main agent). One that comes back later starts fresh.
 */
/**
 * An agent's state by its id, if the state holds one: ids come from the agent's payloads, and one named like
 * a property every object has (`constructor`, `__proto__`) is an agent like any other, not that property.
 */
export function agentIn(state: State, id: string): AgentState | undefined {
  return Object.hasOwn(state.agents, id) ? state.agents[id] : undefined;
}

export function retireAgents(state: State, now: number | undefined, acting: string): State {
  const others = Object.entries(state.agents).filter(([id]) => id !== 'main' && id !== acting);
  const idle = (a: AgentState) => now !== undefined && a.at !== undefined && now - a.at > SUBAGENT_IDLE_MS;
  const room = acting === 'main' ? MAX_LIVE_SUBAGENTS : MAX_LIVE_SUBAGENTS - 1;
  if (others.length <= room && !others.some(([, a]) => idle(a))) return state;
  const keep = others
    .filter(([, a]) => !idle(a))
    .sort(([, a], [, b]) => (b.seen ?? 0) - (a.seen ?? 0))
    .slice(0, room);
  const kept = ['main', acting].flatMap((id) => {
    const a = agentIn(state, id);
    return a ? [[id, a] as const] : [];
  });
  // fromEntries defines each id as a property of its own, whatever its name
  return { ...state, agents: Object.fromEntries([...kept, ...keep]) };
}

/** The state without one agent: a subagent that has ended. */
export function withoutAgent(state: State, id: string): State {
  const { [id]: _gone, ...agents } = state.agents;
  return { ...state, agents };
}

/**
 * The agent's response ended (its batch's end; where batches are not known, the next result it gets): a refusal
 * in it has been seen, and its next spawn starts a round of its own.
 */
export function endResponse(agent: AgentState): AgentState {
  if (!agent.refusalUnseen && !agent.spawning) return agent;
  const { refusalUnseen: _seen, spawning: _ended, ...rest } = agent;
  return rest;
}

/** Keeps the last `n` items of a list. */
export function lastN<T>(list: T[], n: number): T[] {
  return list.length > n ? list.slice(list.length - n) : list;
}

export function isState(x: unknown): x is State {
  const s = x as State;
  return (
    !!s &&
    typeof s === 'object' &&
    s.v === 1 &&
    typeof s.task === 'string' &&
    !!s.agents &&
    typeof s.agents === 'object' &&
    !!s.spawns &&
    !!s.totals
  );
}
