import type { Actor, Event } from '../types.ts';
import { SPAWN_TOOLS } from '../adapters/claude/parse.ts';
import { type Dialect, describeEvent } from '../adapters/dialect.ts';
import { anyDialect, DIALECTS } from '../adapters/dialects.ts';
import { miniSweAgentDialect } from './harness/mini-swe-agent.ts';
import { sweAgentDialect } from './harness/swe-agent.ts';
import { parseJsonLine, type ReadStats, type ReplayItem } from './types.ts';

// The generic trace format (docs/trace-format.md): a meta line, then one line per tool call
// {i, tool, input, output, ok, batch?, turn?, agent?, parent?}. Any agent can be replayed once its log is
// turned into it. The reader gives replay the facts the hook gets live: a new human prompt (`turn`) starts
// a new task, and the end of a model response (`batch`) closes a batch of parallel calls.
//
// Two generations of the format exist. Where the meta line counts `prompts` (or says `batch_unknown`), or
// the lines carry `batch`, `turn` is the human prompt a call follows and `batch` the model response. In
// older traces without either, `turn` numbered the model's responses: there it is the batch, and the
// whole trace is one task.

const SPAWN = new Set([...SPAWN_TOOLS, 'invoke_agent', 'spawn_agent']);

/** The dialect of the agent or harness the meta line names; one that names none is read as any known agent. */
function traceDialect(meta: Record<string, unknown>): Dialect {
  const agent =
    `${typeof meta.agent === 'string' ? meta.agent : ''} ` + `${typeof meta.source === 'string' ? meta.source : ''}`;
  if (/mini-swe-agent/i.test(agent)) return miniSweAgentDialect;
  if (/\bSWE-agent\b|\bCodeR\b/i.test(agent)) return sweAgentDialect;
  if (/\bclaude[- ]code\b/i.test(agent)) return DIALECTS.claude;
  if (/\bcodex\b/i.test(agent)) return DIALECTS.codex;
  if (/\bgemini[- ]cli\b/i.test(agent)) return DIALECTS.gemini;
  if (/\bcursor\b/i.test(agent)) return DIALECTS.cursor;
  if (/\bcopilot\b/i.test(agent)) return DIALECTS.copilot;
  if (/\bqwen\b/i.test(agent)) return DIALECTS.qwen;
  if (/\bopencode\b/i.test(agent)) return DIALECTS.opencode;
  if (/^pi\b|\bpi-coding-agent\b/i.test(agent)) return DIALECTS.pi;
  return anyDialect;
}

type Id = string | number;

function id(v: unknown): Id | undefined {
  return typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? v : undefined;
}

export function* traceEvents(lines: Iterable<string>, session: string, stats: ReadStats): Generator<ReplayItem> {
  let step = 0;
  let turnsArePrompts = false;
  let dialect: Dialect = anyDialect;
  let lastTurn: Id | undefined;
  /** The batch each agent's latest call belonged to: a call under another batch closes it. */
  const openBatch = new Map<string, { batch: Id; agent: Actor }>();
  const typeOfSpawn = new Map<string, string>();
  for (const line of lines) {
    const o = parseJsonLine(line, stats);
    if (!o) continue;
    if ('meta' in o) {
      const meta = o.meta as Record<string, unknown> | null;
      if (meta && typeof meta === 'object') {
        if ('prompts' in meta || 'batch_unknown' in meta) turnsArePrompts = true;
        dialect = traceDialect(meta);
      }
      continue;
    }
    if (typeof o.tool !== 'string') {
      stats.skipped++;
      continue;
    }
    if (o.batch !== undefined) turnsArePrompts = true;
    const input = o.input ?? {};
    const agent = actorOf(o, typeOfSpawn);
    const base = { session, agent };
    const turn = id(o.turn);
    if (turnsArePrompts && turn !== undefined && turn !== lastTurn) {
      // the prompt closes every open batch: the agent had finished its response before the person wrote
      for (const open of openBatch.values()) yield { event: { session, agent: open.agent, kind: 'batch-end' }, step };
      openBatch.clear();
      yield { event: { session, agent: { id: 'main' }, kind: 'prompt' } as Event, step };
      lastTurn = turn;
    }
    const batch = turnsArePrompts ? id(o.batch) : turn;
    if (batch !== undefined) {
      const open = openBatch.get(agent.id);
      // a batch-end also before an agent's first batch: it tells the engine that this session's batches are known
      if (!open || open.batch !== batch) {
        yield { event: { ...base, kind: 'batch-end' }, step };
        openBatch.set(agent.id, { batch, agent });
      }
    }
    const call = { name: o.tool, input, ...(typeof o.id === 'string' ? { id: o.id } : {}) };
    if (SPAWN.has(o.tool)) {
      const childType =
        typeof (input as Record<string, unknown>).subagent_type === 'string'
          ? ((input as Record<string, unknown>).subagent_type as string)
          : 'agent';
      if (typeof o.id === 'string') typeOfSpawn.set(o.id, childType);
      yield { event: { ...base, kind: 'spawn', call, childType }, step };
    } else yield { event: { ...base, kind: 'pre-tool', call }, step };
    const ok = o.ok === true ? true : o.ok === false ? false : null;
    yield { event: describeEvent({ ...base, kind: 'post-tool', call, output: o.output ?? '', ok }, dialect), step };
    step++;
  }
  for (const open of openBatch.values()) yield { event: { session, agent: open.agent, kind: 'batch-end' }, step };
}

/**
 * Who made a call. A subagent's calls carry the id of the call that spawned it (`parent` in older traces,
 * `agent` in newer ones); multi-role harnesses (CodeR) name the role in `agent`, the Manager being the main agent.
 */
function actorOf(o: Record<string, unknown>, typeOfSpawn: Map<string, string>): Actor {
  const sub = typeof o.parent === 'string' ? o.parent : undefined;
  if (sub) return { id: sub, type: typeOfSpawn.get(sub) ?? 'subagent' };
  const named = typeof o.agent === 'string' ? o.agent : undefined;
  if (!named || named === 'Manager') return { id: 'main' };
  const spawnedBy = typeOfSpawn.get(named);
  return { id: named, type: spawnedBy ?? named };
}
