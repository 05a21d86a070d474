import type { Config, Decision, Step } from '../types.ts';
import { ALLOW } from '../types.ts';
import type { AgentState } from './state.ts';

type StopStep = Extract<Step, { k: 'stop' }>;

/** What happens when an agent ends its turn. */
export function checkStop(agent: AgentState, _step: StopStep, _config: Config): { agent: AgentState; decision: Decision } {
  return { agent, decision: ALLOW };
}
