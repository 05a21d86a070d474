import type { Actor, Event } from '../../types.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// Codex CLI's hook payloads (../shared/reference/agent-hooks.md §2, captured from 0.171 in
// ../shared/e2e/samples/codex-*). Claude-shaped, plus `turn_id` and `model` on every event. Only Bash,
// apply_patch, MCP tools and the multi-agent tools reach the tool events. Subagent hooks carry the PARENT's
// session_id, so a subagent is told apart by agent_id alone.

/** The multi-agent tool that starts a subagent; it reaches PreToolUse, where a refusal can still deny it. */
export const CODEX_SPAWN_TOOLS = new Set(['spawn_agent']);

function actor(p: Record<string, unknown>): Actor {
  const id = str(p.agent_id);
  if (!id) return { id: 'main' };
  const type = str(p.agent_type);
  return type ? { id, type } : { id };
}

function childType(input: unknown): string {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  return str(o.agent_type) ?? str(o.role) ?? 'default';
}

export function parseCodex(p: Record<string, unknown>): Parsed | undefined {
  const hookEvent = str(p.hook_event_name);
  const session = str(p.session_id);
  if (!hookEvent || !session) return undefined;
  const agent = actor(p);
  // a turn is the work on one user prompt: the task id of the main agent
  const base = { session, agent, task: str(p.turn_id), cwd: str(p.cwd), time: Date.now() };
  const tool = str(p.tool_name);
  const call = tool ? { name: tool, input: p.tool_input ?? {}, id: str(p.tool_use_id) } : undefined;
  let event: Event | undefined;
  switch (hookEvent) {
    case 'UserPromptSubmit':
      // inside a subagent this is the message it was spawned with, already counted as the spawn
      if (agent.id !== 'main') return undefined;
      event = { ...base, kind: 'prompt', prompt: str(p.prompt) };
      break;
    case 'PreToolUse':
      if (!call) return undefined;
      event = CODEX_SPAWN_TOOLS.has(call.name)
        ? { ...base, kind: 'spawn', call, childType: childType(call.input) }
        : { ...base, kind: 'pre-tool', call };
      break;
    case 'PostToolUse':
      // fires after failing commands too, and the payload does not say how the command exited
      if (!call) return undefined;
      event = { ...base, kind: 'post-tool', call, output: p.tool_response ?? '', ok: null };
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
    default:
      // SubagentStart cannot block and follows the spawn_agent call already seen; compaction and
      // permission events say nothing about stalls
      return undefined;
  }
  return parsedEvent(event, hookEvent);
}
