import type { Actor, Event } from '../../types.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// Claude Code's hook payloads (reference: ../shared/reference/agent-hooks.md §1, measured on 2.1.197).
// Every field is read defensively: the contract drifted often between versions.

export const SPAWN_TOOLS = new Set(['Agent', 'Task']);

function actor(p: Record<string, unknown>): Actor {
  // agent_type alone is set on main-agent events of a session started with --agent; only agent_id marks a subagent
  const id = str(p.agent_id);
  if (!id) return { id: 'main' };
  const type = str(p.agent_type);
  return type ? { id, type } : { id };
}

/**
 * Claude Code's own payloads. Its PostToolBatch lists the batch's calls with their results (the text the model
 * reads), so an install need not register PostToolUse, which fires for every call that succeeds: each such call
 * costs a hook event less. A failure still comes on its own (PostToolUseFailure, with the exact failure), and
 * the engine observes from the list only the calls not observed on their own.
 */
export function parseClaude(p: Record<string, unknown>): Parsed | undefined {
  const parsed = parseClaudeShaped(p, SPAWN_TOOLS);
  if (!parsed) return undefined;
  const { event } = parsed;
  if (event.kind === 'post-tool') event.late = false;
  else if (event.kind === 'batch-end' && Array.isArray(p.tool_calls)) {
    const outcomes = batchOutcomes(p.tool_calls, event);
    if (outcomes.length > 0) parsed.outcomes = outcomes;
  }
  return parsed;
}

/** Texts of results of calls that never ran as the agent asked: stallguard's own refusal, the person's interrupt. */
const NOT_RUN = /^\s*(?:stallguard[: ]|\[Request interrupted by user)/;

function batchOutcomes(calls: unknown[], end: Event): Event[] {
  const out: Event[] = [];
  for (const c of calls) {
    if (!c || typeof c !== 'object') continue;
    const o = c as Record<string, unknown>;
    const name = str(o.tool_name);
    if (!name || o.tool_response === undefined) continue;
    if (typeof o.tool_response === 'string' && NOT_RUN.test(o.tool_response.slice(0, 64))) continue;
    const call = { name, input: o.tool_input ?? {}, id: str(o.tool_use_id) };
    const { kind: _, ...base } = end;
    // the list says no more than the text of each result: the dialect reads success or failure from it
    out.push({ ...base, kind: 'post-tool', call, output: o.tool_response, ok: null, late: true });
  }
  return out;
}

/** A payload in Claude Code's shape, from Claude Code or an agent that copies its hooks (Qwen Code). */
export function parseClaudeShaped(p: Record<string, unknown>, spawnTools: ReadonlySet<string>): Parsed | undefined {
  const hookEvent = str(p.hook_event_name);
  const session = str(p.session_id);
  if (!hookEvent || !session) return undefined;
  const base = { session, agent: actor(p), task: str(p.prompt_id), cwd: str(p.cwd), time: Date.now() };
  const tool = str(p.tool_name);
  const call = tool ? { name: tool, input: p.tool_input ?? {}, id: str(p.tool_use_id) } : undefined;
  let event: Event | undefined;
  switch (hookEvent) {
    case 'UserPromptSubmit':
      event = { ...base, kind: 'prompt', prompt: str(p.prompt) };
      break;
    case 'PreToolUse':
      if (!call) return undefined;
      if (spawnTools.has(call.name)) {
        const input = (call.input ?? {}) as Record<string, unknown>;
        event = { ...base, kind: 'spawn', call, childType: str(input.subagent_type) ?? 'general-purpose' };
      } else event = { ...base, kind: 'pre-tool', call };
      break;
    case 'PostToolUse':
      if (!call) return undefined;
      event = { ...base, kind: 'post-tool', call, output: p.tool_response, ok: true };
      break;
    case 'PostToolUseFailure':
      // an interrupt is the person's doing, not a failed attempt of the agent
      if (!call || p.is_interrupt === true) return undefined;
      event = { ...base, kind: 'post-tool', call, output: str(p.error) ?? p.error ?? '', ok: false };
      break;
    case 'PostToolBatch':
      event = { ...base, kind: 'batch-end' };
      break;
    case 'Stop':
    case 'SubagentStop':
      event = {
        ...base,
        kind: 'stop',
        message: str(p.last_assistant_message),
        stopHookActive: p.stop_hook_active === true,
      };
      break;
    case 'SessionStart':
      event = { ...base, kind: 'session-start' };
      break;
    case 'SessionEnd':
      event = { ...base, kind: 'session-end' };
      break;
    default:
      return undefined;
  }
  return parsedEvent(event, hookEvent);
}
