import type { AgentName } from '../types.ts';
import type { Adapter } from './types.ts';
import { claude } from './claude/index.ts';

const ADAPTERS: Partial<Record<AgentName, Adapter>> = { claude };

export function adapterFor(name: AgentName): Adapter | undefined {
  return ADAPTERS[name];
}

/** Which agent sent a payload, from its shape and the hook's environment. */
export function detectAgent(payload: Record<string, unknown>, _env: NodeJS.ProcessEnv = process.env): AgentName | undefined {
  if (typeof payload.hook_event_name === 'string') return 'claude';
  return undefined;
}
