import type { Event } from '../../types.ts';
import { parseMaybeJson } from '../../core/call-fields.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// GitHub Copilot CLI's hook payloads (../shared/reference/agent-hooks.md §5.1 and the CLI hooks reference).
// Hooks registered under camelCase event names (preToolUse) get camelCase payloads that do not name the
// event: {sessionId, timestamp, cwd, toolName, toolArgs, ...}, so the event is told from the fields.
// Hooks registered under PascalCase names (PreToolUse) get snake_case payloads with hook_event_name; both
// are read, and both are answered in the same top-level fields. toolArgs may arrive as a JSON string.
// The payloads carry no agent ids: every call is the main agent's.

/** The tool that runs a subagent task; its preToolUse is where a spawn can be refused. */
export const COPILOT_SPAWN_TOOLS = new Set(['task']);

const PASCAL: Record<string, string> = {
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  UserPromptSubmit: 'userPromptSubmitted',
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  Stop: 'agentStop',
  SubagentStop: 'subagentStop',
};

/** The camelCase event name of a payload: named in the snake_case dialect, told from the fields otherwise. */
export function copilotEvent(p: Record<string, unknown>): string | undefined {
  const named = str(p.hook_event_name);
  if (named) return PASCAL[named] ?? named;
  if (p.toolResult !== undefined) return 'postToolUse';
  if (str(p.toolName)) return typeof p.error === 'string' || (p.error && typeof p.error === 'object') ? 'postToolUseFailure' : 'preToolUse';
  if (typeof p.prompt === 'string') return 'userPromptSubmitted';
  if (str(p.agentName)) return p.stopReason !== undefined ? 'subagentStop' : 'subagentStart';
  if (p.stopReason !== undefined) return 'agentStop';
  if (p.errorContext !== undefined) return 'errorOccurred';
  if (p.source !== undefined) return 'sessionStart';
  if (p.reason !== undefined) return 'sessionEnd';
  return undefined;
}

function spawnType(input: unknown): string {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  return str(o.agent_type) ?? str(o.subagent_type) ?? str(o.agentName) ?? 'task';
}

export function parseCopilot(p: Record<string, unknown>): Parsed | undefined {
  const hookEvent = copilotEvent(p);
  const session = str(p.sessionId) ?? str(p.session_id);
  if (!hookEvent || !session) return undefined;
  const base = { session, agent: { id: 'main' }, cwd: str(p.cwd), time: Date.now() };
  const tool = str(p.toolName) ?? str(p.tool_name);
  const call = tool ? { name: tool, input: parseMaybeJson(p.toolArgs ?? p.tool_input ?? {}) } : undefined;
  let event: Event | undefined;
  switch (hookEvent) {
    case 'userPromptSubmitted':
      event = { ...base, kind: 'prompt', prompt: str(p.prompt) };
      break;
    case 'preToolUse':
      if (!call) return undefined;
      event = COPILOT_SPAWN_TOOLS.has(call.name) ? { ...base, kind: 'spawn', call, childType: spawnType(call.input) } : { ...base, kind: 'pre-tool', call };
      break;
    case 'postToolUse': {
      if (!call) return undefined;
      const result = (p.toolResult ?? p.tool_result ?? {}) as Record<string, unknown>;
      const type = str(result.resultType) ?? str(result.result_type) ?? 'success';
      // a denied call never ran: not an attempt of the agent
      if (type === 'denied') return undefined;
      event = { ...base, kind: 'post-tool', call, output: result.textResultForLlm ?? result.text_result_for_llm ?? '', ok: type === 'success' };
      break;
    }
    case 'postToolUseFailure': {
      if (!call) return undefined;
      const error = p.error && typeof p.error === 'object' ? str((p.error as Record<string, unknown>).message) : str(p.error);
      event = { ...base, kind: 'post-tool', call, output: error ?? '', ok: false };
      break;
    }
    case 'agentStop':
    case 'subagentStop': {
      const agentName = str(p.agentName) ?? str(p.agent_name);
      event = { ...base, kind: 'stop', ...(hookEvent === 'subagentStop' && agentName ? { agent: { id: agentName, type: agentName } } : {}) };
      break;
    }
    case 'sessionStart':
      event = { ...base, kind: 'session-start' };
      break;
    case 'sessionEnd':
      event = { ...base, kind: 'session-end' };
      break;
    default:
      // subagentStart cannot block and follows the task call already seen; errors, compaction and
      // notifications say nothing about stalls
      return undefined;
  }
  return parsedEvent(event, hookEvent);
}
