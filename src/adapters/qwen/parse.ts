import type { Actor, Event } from '../../types.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// Qwen Code's hook payloads (0.24.4; docs/agents.md). Claude-shaped: session_id, transcript_path, cwd,
// hook_event_name, prompt_id, tool_name / tool_input / tool_response, PostToolUseFailure for failed calls.
// Two differences matter:
// - UserPromptSubmit fires before every model request of the main agent, the tool-result continuations
//   (prompt "") and a Stop hook's continuation (prompt = the hook's reason) included, all under the
//   prompt_id of the user's query. Only the query itself carries submitted_prompt; every other firing is
//   the end of a batch of calls, where a stop can still end the turn before the model is asked again.
// - Subagents run inside the parent's session and carry agent_id (`<type>-<call id>`); agent_type only
//   on SubagentStart/SubagentStop. They fire no UserPromptSubmit: their PostToolBatch ends their batches.

/** The tool that starts a subagent (`task` in earlier releases). */
export const QWEN_SPAWN_TOOLS = new Set(['agent', 'task']);

function actor(p: Record<string, unknown>): Actor {
  const id = str(p.agent_id);
  if (!id) return { id: 'main' };
  const type = str(p.agent_type);
  return type ? { id, type } : { id };
}

export function parseQwen(p: Record<string, unknown>): Parsed | undefined {
  const hookEvent = str(p.hook_event_name);
  const session = str(p.session_id);
  if (!hookEvent || !session) return undefined;
  const base = { session, agent: actor(p), task: str(p.prompt_id), cwd: str(p.cwd), time: Date.now() };
  const tool = str(p.tool_name);
  const call = tool ? { name: tool, input: p.tool_input ?? {}, id: str(p.tool_call_id) ?? str(p.tool_use_id) } : undefined;
  let event: Event | undefined;
  switch (hookEvent) {
    case 'UserPromptSubmit':
      event = typeof p.submitted_prompt === 'string' ? { ...base, kind: 'prompt', prompt: str(p.prompt) } : { ...base, kind: 'batch-end' };
      break;
    case 'PreToolUse':
      if (!call) return undefined;
      if (QWEN_SPAWN_TOOLS.has(call.name)) {
        const input = (call.input ?? {}) as Record<string, unknown>;
        event = { ...base, kind: 'spawn', call, childType: str(input.subagent_type) ?? 'general-purpose' };
      } else event = { ...base, kind: 'pre-tool', call };
      break;
    case 'PostToolUse':
      if (!call) return undefined;
      event = { ...base, kind: 'post-tool', call, output: p.tool_response ?? '', ok: true };
      break;
    case 'PostToolUseFailure':
      // an interrupt is the person's doing, not a failed attempt of the agent
      if (!call || p.is_interrupt === true) return undefined;
      event = { ...base, kind: 'post-tool', call, output: str(p.error) ?? p.error ?? '', ok: false };
      break;
    case 'Stop':
    case 'SubagentStop':
      event = { ...base, kind: 'stop', message: str(p.last_assistant_message), stopHookActive: p.stop_hook_active === true };
      break;
    case 'SessionStart':
      event = { ...base, kind: 'session-start' };
      break;
    case 'SessionEnd':
      event = { ...base, kind: 'session-end' };
      break;
    case 'PostToolBatch':
      // the main agent's batches end at the UserPromptSubmit after them, where a stop ends the turn; a
      // subagent fires no UserPromptSubmit, so its batches end here
      if (base.agent.id === 'main') return undefined;
      event = { ...base, kind: 'batch-end' };
      break;
    default:
      // SubagentStart follows the agent call already seen
      return undefined;
  }
  return parsedEvent(event, hookEvent);
}
