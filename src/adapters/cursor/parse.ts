import type { Actor, Event } from '../../types.ts';
import { parseMaybeJson } from '../../core/call-fields.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// Cursor's hook payloads (../shared/reference/agent-hooks.md §4). Two documented versions: the older one
// [CU-A] and the newer one [CU-B] differ in a few input fields (subagentStart's prompt/model vs
// task/subagent_model), and both are read. Every payload carries conversation_id (stable across turns),
// generation_id (new with every user message: the task) and cursor_version. Inside a subagent the payload
// names its parent conversation, which is the session the subagent belongs to.

function childType(p: Record<string, unknown>): string {
  return str(p.subagent_type) ?? 'generalPurpose';
}

function actor(p: Record<string, unknown>, hookEvent: string): Actor {
  // subagentStart is sent on behalf of the agent that asks for the subagent; the docs do not say how a
  // nested request would look, so it counts as the main agent's (the spawn cap still applies)
  if (hookEvent === 'subagentStart') return { id: 'main' };
  const parent = str(p.parent_conversation_id);
  const id = str(p.subagent_id) ?? (parent ? str(p.conversation_id) : undefined);
  if (!id) return { id: 'main' };
  const type = str(p.subagent_type);
  return type ? { id, type } : { id };
}

function exitedZero(output: unknown): boolean {
  const o = (output && typeof output === 'object' ? output : {}) as Record<string, unknown>;
  const code = o.exitCode ?? o.exit_code;
  return typeof code === 'number' ? code === 0 : true;
}

export function parseCursor(p: Record<string, unknown>): Parsed | undefined {
  const hookEvent = str(p.hook_event_name);
  const session = str(p.parent_conversation_id) ?? str(p.conversation_id) ?? str(p.session_id);
  if (!hookEvent || !session) return undefined;
  const agent = actor(p, hookEvent);
  const cwd = str(p.cwd) ?? (Array.isArray(p.workspace_roots) ? str(p.workspace_roots[0]) : undefined);
  const base = { session, agent, task: str(p.generation_id), cwd, time: Date.now() };
  const tool = str(p.tool_name);
  const call = tool ? { name: tool, input: parseMaybeJson(p.tool_input ?? {}), id: str(p.tool_use_id) } : undefined;
  let event: Event | undefined;
  switch (hookEvent) {
    case 'beforeSubmitPrompt':
      event = { ...base, kind: 'prompt', prompt: str(p.prompt) };
      break;
    case 'preToolUse':
      if (!call) return undefined;
      event = { ...base, kind: 'pre-tool', call };
      break;
    case 'subagentStart': {
      // the spawn is judged here, where Cursor lets a hook refuse it; its preToolUse (tool Task) is a plain call
      const input = { subagent_type: childType(p), task: str(p.task) ?? str(p.prompt) ?? '' };
      event = {
        ...base,
        kind: 'spawn',
        call: { name: 'Task', input, id: str(p.tool_call_id) },
        childType: childType(p),
      };
      break;
    }
    case 'postToolUse': {
      if (!call) return undefined;
      // tool_output is a JSON string; a shell call that ran but exited non-zero says so in it
      const output = parseMaybeJson(p.tool_output ?? '');
      event = { ...base, kind: 'post-tool', call, output, ok: exitedZero(output) };
      break;
    }
    case 'postToolUseFailure':
      // an interrupt is the person's doing, not a failed attempt of the agent
      if (!call || p.is_interrupt === true) return undefined;
      event = {
        ...base,
        kind: 'post-tool',
        call,
        output: str(p.error_message) ?? str(p.failure_type) ?? '',
        ok: false,
      };
      break;
    case 'stop':
    case 'subagentStop':
      event = {
        ...base,
        kind: 'stop',
        message: str(p.summary),
        stopHookActive: typeof p.loop_count === 'number' && p.loop_count > 0,
      };
      break;
    case 'sessionStart':
      event = { ...base, kind: 'session-start' };
      break;
    case 'sessionEnd':
      event = { ...base, kind: 'session-end' };
      break;
    default:
      // the shell/MCP/read-specific events repeat what preToolUse and postToolUse already carry
      return undefined;
  }
  return parsedEvent(event, hookEvent);
}
