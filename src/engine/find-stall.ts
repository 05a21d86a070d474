import type { Config, SignalHit } from '../types.ts';
import type { Loop } from '../detect/loop.ts';
import { repeatedCall } from '../detect/repeat.ts';
import { repeatedCycle } from '../detect/cycle.ts';
import type { AgentState } from './state.ts';
import type { Seen } from './memory.ts';

export interface Stall {
  loop: Loop;
  signals: SignalHit[];
}

/**
 * Whether the agent's latest call completes a stall. The deterministic floor (the seed rule: the same
 * call with the same outcome `repeat` times, or one cycle of 2..maxCycle calls repeated `cycleRepeats`
 * times) is always a stall.
 */
export function findStall(agent: AgentState, _seen: Seen, config: Config): Stall | undefined {
  const loop = repeatedCall(agent.window, config.repeat) ?? repeatedCycle(agent.window, config.cycleRepeats, config.maxCycle);
  if (loop) return { loop, signals: [loop.signal] };
  return undefined;
}
