import type { Actor } from '../types.ts';
import { SPAWN_TOOLS } from '../adapters/claude/parse.ts';
import { parseJsonLine, type ReadStats, type ReplayItem } from './types.ts';

// The generic trace format (../shared/corpus/README.md): a meta line, then one line per tool call
// {i, tool, input, output, ok, parent?, agent?}. Any agent can be replayed once its log is turned into it.

const SPAWN = new Set([...SPAWN_TOOLS, 'invoke_agent', 'spawn_agent']);

export function* traceEvents(lines: Iterable<string>, session: string, stats: ReadStats): Generator<ReplayItem> {
  let step = 0;
  const typeOfSpawn = new Map<string, string>();
  for (const line of lines) {
    const o = parseJsonLine(line, stats);
    if (!o || 'meta' in o) continue;
    if (typeof o.tool !== 'string') {
      stats.skipped++;
      continue;
    }
    const input = o.input ?? {};
    const parent = typeof o.parent === 'string' ? o.parent : undefined;
    const role = typeof o.agent === 'string' ? o.agent : undefined;
    // calls inside a Claude Code subagent carry the spawning call's id; multi-role agents (CodeR) name the role
    const agent: Actor = parent ? { id: parent, type: typeOfSpawn.get(parent) ?? 'subagent' } : role && role !== 'Manager' ? { id: role, type: role } : { id: 'main' };
    const call = { name: o.tool, input, ...(typeof o.id === 'string' ? { id: o.id } : {}) };
    const base = { session, agent };
    if (SPAWN.has(o.tool)) {
      const childType = typeof (input as Record<string, unknown>).subagent_type === 'string' ? ((input as Record<string, unknown>).subagent_type as string) : 'agent';
      if (typeof o.id === 'string') typeOfSpawn.set(o.id, childType);
      yield { event: { ...base, kind: 'spawn', call, childType }, step };
    } else yield { event: { ...base, kind: 'pre-tool', call }, step };
    const ok = o.ok === true ? true : o.ok === false ? false : null;
    yield { event: { ...base, kind: 'post-tool', call, output: o.output ?? '', ok }, step };
    step++;
  }
}
