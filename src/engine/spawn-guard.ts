import type { Actor, Config, SignalHit } from '../types.ts';
import type { SpawnState } from './state.ts';

// Runaway delegation: subagents that spawn subagents, or an agent that keeps delegating. The guard refuses a
// spawn from a subagent that is not an orchestrator, and a round of spawns past the cap in one task. It counts
// rounds, not subagents: a response that fans a job out to sixteen subagents at once made one decision, which
// the person can read in the transcript; an agent that delegates again and again has not stopped to think.

export interface SpawnVerdict {
  allowed: boolean;
  signal?: SignalHit;
  message?: string;
}

/** `joins`: the caller's open response has started subagents already, so this spawn is of that round. */
export function checkSpawn(spawns: SpawnState, caller: Actor, config: Config, joins = false): SpawnVerdict {
  if (caller.id !== 'main' && !config.orchestrators.includes(caller.type ?? '')) {
    return {
      allowed: false,
      signal: { code: 'SPAWN_DEPTH', value: 1, detail: caller.type ?? caller.id },
      message:
        `stallguard: a ${caller.type ?? 'subagent'} subagent may not start subagents of its own here ` +
        '(only orchestrator types may). Do this work yourself, in this agent, with the tools you have.',
    };
  }
  const rounds = roundsWith(spawns, joins);
  if (rounds > config.spawnCap) {
    return {
      allowed: false,
      signal: { code: 'SPAWN_CAP', value: rounds },
      message:
        `stallguard: this would be round ${rounds} of delegation in this task (${spawns.count} subagents so far); ` +
        `the limit is ${config.spawnCap}. ` +
        'Do the remaining work yourself instead of delegating it, or summarise what the subagents found so far.',
    };
  }
  return { allowed: true };
}

export function recordSpawn(spawns: SpawnState, caller: Actor, childType: string, joins: boolean): SpawnState {
  const parent = caller.id === 'main' ? 'main' : `${caller.id} (${caller.type ?? 'agent'})`;
  const children = { ...(spawns.tree[parent] ?? {}) };
  children[childType] = (children[childType] ?? 0) + 1;
  return { count: spawns.count + 1, rounds: roundsWith(spawns, joins), tree: { ...spawns.tree, [parent]: children } };
}

/** The task's rounds once a spawn is counted. States written before rounds were counted have their count. */
function roundsWith(spawns: SpawnState, joins: boolean): number {
  const before = spawns.rounds ?? spawns.count;
  return joins ? before : before + 1;
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
