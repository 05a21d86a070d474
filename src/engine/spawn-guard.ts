import type { Actor, Config, SignalHit } from '../types.ts';
import type { SpawnState } from './state.ts';

// Runaway delegation: subagents that spawn subagents, or an agent that fans out without end. The guard
// refuses a spawn from a subagent that is not an orchestrator, and any spawn past the cap in one task.

export interface SpawnVerdict {
  allowed: boolean;
  signal?: SignalHit;
  message?: string;
}

export function checkSpawn(spawns: SpawnState, caller: Actor, config: Config): SpawnVerdict {
  if (caller.id !== 'main' && !config.orchestrators.includes(caller.type ?? '')) {
    return {
      allowed: false,
      signal: { code: 'SPAWN_DEPTH', value: 1, detail: caller.type ?? caller.id },
      message:
        `stallguard: a ${caller.type ?? 'subagent'} subagent may not start subagents of its own here ` +
        '(only orchestrator types may). Do this work yourself, in this agent, with the tools you have.',
    };
  }
  if (spawns.count >= config.spawnCap) {
    return {
      allowed: false,
      signal: { code: 'SPAWN_CAP', value: spawns.count + 1 },
      message:
        `stallguard: this would be spawn ${spawns.count + 1} in this task; the limit is ${config.spawnCap}. ` +
        'Do the remaining work yourself instead of delegating it, or summarise what the subagents found so far.',
    };
  }
  return { allowed: true };
}

export function recordSpawn(spawns: SpawnState, caller: Actor, childType: string): SpawnState {
  const parent = caller.id === 'main' ? 'main' : `${caller.id} (${caller.type ?? 'agent'})`;
  const children = { ...(spawns.tree[parent] ?? {}) };
  children[childType] = (children[childType] ?? 0) + 1;
  return { count: spawns.count + 1, tree: { ...spawns.tree, [parent]: children } };
}

/** main → general-purpose x6, Explore x4; a21911 (general-purpose) → general-purpose x1 */
export function describeSpawnTree(spawns: SpawnState): string {
  const parts = Object.entries(spawns.tree).map(
    ([parent, kids]) =>
      `${parent} → ${Object.entries(kids)
        .map(([t, n]) => `${t} x${n}`)
        .join(', ')}`,
  );
  return parts.length > 0 ? parts.join('; ') : 'no spawns';
}
