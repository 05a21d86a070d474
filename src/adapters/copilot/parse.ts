import type { Actor, Event } from '../../types.ts';
import { parseMaybeJson } from '../../core/call-fields.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// GitHub Copilot CLI's hook payloads (../shared/reference/agent-hooks.md §5.1, the CLI hooks reference, and
// what 1.0.102 sends, docs/agents.md). Hooks registered under camelCase event names (preToolUse) get
// camelCase payloads that do not name the event: {sessionId, timestamp, cwd, toolName, toolArgs, ...}, so
// the event is told from the fields. Hooks registered under PascalCase names (PreToolUse) get snake_case
// payloads with hook_event_name; both are read. toolArgs may arrive as a JSON string (older docs).
//
// Subagents: a subagent's own hooks carry its id as sessionId and agentId, the parent's as parentAgentId;
// its lifecycle hooks (subagentStart/subagentStop) and permission requests carry the parent's sessionId.
// One stallguard session per Copilot session, so a subagent's calls are filed under its parent's id (a
// subagent of a subagent under its parent's, which is as far as a payload tells).

/** The tool that runs a subagent task; its preToolUse is where a spawn can be refused. */
export const COPILOT_SPAWN_TOOLS = new Set(['task']);

const PASCAL: Record<string, string> = {
  SessionStart: 'sessionStart',
  SessionEnd: 'sessionEnd',
  UserPromptSubmit: 'userPromptSubmitted',
  PreToolUse: 'preToolUse',
  PostToolUse: 'postToolUse',
  PostToolUseFailure: 'postToolUseFailure',
  PermissionRequest: 'permissionRequest',
  Stop: 'agentStop',
  SubagentStop: 'subagentStop',
};

/** The camelCase event name of a payload: named in the snake_case dialect, told from the fields otherwise. */
export function copilotEvent(p: Record<string, unknown>): string | undefined {
  const named = str(p.hook_event_name) ?? str(p.hookName);
  if (named) return PASCAL[named] ?? named;
  if (p.toolResult !== undefined) return 'postToolUse';
  if (str(p.toolName))
    return typeof p.error === 'string' || (p.error && typeof p.error === 'object')
      ? 'postToolUseFailure'
      : 'preToolUse';
  if (typeof p.prompt === 'string') return 'userPromptSubmitted';
  if (str(p.agentName)) return p.stopReason !== undefined ? 'subagentStop' : 'subagentStart';
  if (p.stopReason !== undefined) return 'agentStop';
  if (p.errorContext !== undefined) return 'errorOccurred';
  if (p.source !== undefined) return 'sessionStart';
  if (p.reason !== undefined) return 'sessionEnd';
  return undefined;
}

/** The type of subagent a spawn call starts, as Copilot names it in the call's arguments. */
export function spawnType(input: unknown): string {
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  return str(o.agent_type) ?? str(o.subagent_type) ?? str(o.agentName) ?? 'task';
}

function actorAndSession(p: Record<string, unknown>): { session?: string; agent: Actor } {
  const own = str(p.sessionId) ?? str(p.session_id);
  const id = str(p.agentId) ?? str(p.agent_id);
  if (!id) return { session: own, agent: { id: 'main' } };
  const parent = str(p.parentAgentId) ?? str(p.parent_agent_id);
  const type = str(p.agentType) ?? str(p.agent_type) ?? str(p.agentName) ?? str(p.agent_name);
  return { session: own === id && parent ? parent : own, agent: type ? { id, type } : { id } };
}

export function parseCopilot(p: Record<string, unknown>): Parsed | undefined {
  const hookEvent = copilotEvent(p);
  const { session, agent } = actorAndSession(p);
  if (!hookEvent || !session) return undefined;
  const base = { session, agent, cwd: str(p.cwd), time: Date.now() };
  const tool = str(p.toolName) ?? str(p.tool_name);
  const input = hookEvent === 'permissionRequest' ? (p.toolInput ?? p.tool_input) : (p.toolArgs ?? p.tool_input);
  const call = tool ? { name: tool, input: parseMaybeJson(input ?? {}) } : undefined;
  const sub = agent.id !== 'main';
  let event: Event | undefined;
  switch (hookEvent) {
    case 'userPromptSubmitted':
      // inside a subagent this is the task it was given, already counted as the spawn
      if (sub) return undefined;
      event = { ...base, kind: 'prompt', prompt: str(p.prompt) };
      break;
    case 'preToolUse':
      if (!call) return undefined;
      event = COPILOT_SPAWN_TOOLS.has(call.name)
        ? { ...base, kind: 'spawn', call, childType: spawnType(call.input) }
        : { ...base, kind: 'pre-tool', call };
      break;
    case 'permissionRequest':
      // the same call again, after preToolUse let it through: where a stopped agent is ended
      if (!call) return undefined;
      event = { ...base, kind: 'pre-tool', call };
      break;
    case 'postToolUse': {
      if (!call) return undefined;
      const result = (p.toolResult ?? p.tool_result ?? {}) as Record<string, unknown>;
      const type = str(result.resultType) ?? str(result.result_type) ?? 'success';
      // a denied call never ran: not an attempt of the agent
      if (type === 'denied') return undefined;
      // a shell command's exit code is in the trailer of its result, read by the dialect (./dialect.ts)
      event = {
        ...base,
        kind: 'post-tool',
        call,
        output: result.textResultForLlm ?? result.text_result_for_llm ?? '',
        ok: type === 'success',
      };
      break;
    }
    case 'postToolUseFailure': {
      if (!call) return undefined;
      const error =
        p.error && typeof p.error === 'object' ? str((p.error as Record<string, unknown>).message) : str(p.error);
      event = { ...base, kind: 'post-tool', call, output: error ?? '', ok: false };
      break;
    }
    case 'agentStop':
      // a subagent's own agentStop is followed by the subagentStop its parent sees
      if (sub) return undefined;
      event = { ...base, kind: 'stop', stopHookActive: p.stop_hook_active === true || p.stopHookActive === true };
      break;
    case 'subagentStop':
      event = {
        ...base,
        kind: 'stop',
        message: str(p.response),
        stopHookActive: p.stop_hook_active === true || p.stopHookActive === true,
      };
      break;
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
