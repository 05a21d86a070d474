import type { CallStep } from '../types.ts';

// What the engine remembers about one session. Everything here is bounded: windows are cut to the
// configured length, memories are capped, so the cost of a call never grows with the session's length.

export interface AgentState {
  type?: string;
  /** The latest calls of this agent in this task, since the last stall. */
  window: CallStep[];
  /** Stalls declared in this task. */
  stalls: number;
  /** Spawn refusals in this task. */
  refusals: number;
  /** Set once the agent is stopped in this task; every later tool call is refused with it. */
  stopped?: { reason: string };
  /** Task-wide memory for signals that look further back than the window. */
  memory: SignalMemory;
  /** Whether the agent was already sent back once at a stop in this task (the verify gate). */
  verifySent?: boolean;
}

/** Bounded task-wide memory: what was read, which failures were seen at which working-tree state. */
export interface SignalMemory {
  /** region digest -> the number of edits seen when it was last read. */
  reads: Record<string, number>;
  /** Edits (tree-changing calls) seen in this task. */
  edits: number;
  /** tree fingerprint + failure digest pairs seen, in order. */
  treeFailures: string[];
  /** Digests of the agent's closing texts. */
  texts: string[];
}

export interface SpawnState {
  count: number;
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
}

export function initialState(): State {
  return { v: 1, task: 't0', tasks: 0, agents: {}, spawns: { count: 0, tree: {} }, totals: { calls: 0, stalls: 0, refusals: 0 } };
}

export function freshAgent(type?: string): AgentState {
  const a: AgentState = { window: [], stalls: 0, refusals: 0, memory: { reads: {}, edits: 0, treeFailures: [], texts: [] } };
  if (type !== undefined) a.type = type;
  return a;
}

/** Keeps the last `n` items of a list. */
export function lastN<T>(list: T[], n: number): T[] {
  return list.length > n ? list.slice(list.length - n) : list;
}

export function isState(x: unknown): x is State {
  const s = x as State;
  return !!s && typeof s === 'object' && s.v === 1 && typeof s.task === 'string' && !!s.agents && typeof s.agents === 'object' && !!s.spawns && !!s.totals;
}
