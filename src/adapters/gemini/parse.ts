import type { Event } from '../../types.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// Gemini CLI's hook payloads (../shared/reference/agent-hooks.md §3, captured from 0.61 in
// ../shared/e2e/samples/gemini-*). Its own event names (BeforeTool, AfterTool, BeforeAgent, AfterAgent),
// no prompt id and no subagent ids: subagents run through the invoke_agent tool.

/** The tool that starts a subagent (older builds: delegate_to_agent). */
export const GEMINI_SPAWN_TOOLS = new Set(['invoke_agent', 'delegate_to_agent']);

const EXIT_CODE = /^Exit Code: (-?\d+)\s*$/m;

/**
 * Whether a tool call succeeded: a tool error says so; a shell command reports its exit code inside the
 * text it returns to the model; anything else without an error succeeded.
 */
export function geminiOk(response: unknown): boolean {
  if (!response || typeof response !== 'object') return true;
  const r = response as Record<string, unknown>;
  if (r.error !== undefined && r.error !== null && r.error !== '') return false;
  const text = typeof r.llmContent === 'string' ? r.llmContent : '';
  const code = EXIT_CODE.exec(text);
  return code ? code[1] === '0' : true;
}

export function parseGemini(p: Record<string, unknown>): Parsed | undefined {
  const hookEvent = str(p.hook_event_name);
  const session = str(p.session_id);
  if (!hookEvent || !session) return undefined;
  const base = { session, agent: { id: 'main' }, cwd: str(p.cwd), time: Date.now() };
  const tool = str(p.tool_name);
  const call = tool ? { name: tool, input: p.tool_input ?? {} } : undefined;
  let event: Event | undefined;
  switch (hookEvent) {
    case 'BeforeAgent':
      event = { ...base, kind: 'prompt', prompt: str(p.prompt) };
      break;
    case 'BeforeTool':
      if (!call) return undefined;
      if (GEMINI_SPAWN_TOOLS.has(call.name)) {
        const input = (call.input ?? {}) as Record<string, unknown>;
        event = { ...base, kind: 'spawn', call, childType: str(input.agent_name) ?? 'agent' };
      } else event = { ...base, kind: 'pre-tool', call };
      break;
    case 'AfterTool':
      if (!call) return undefined;
      event = { ...base, kind: 'post-tool', call, output: p.tool_response ?? '', ok: geminiOk(p.tool_response) };
      break;
    case 'AfterAgent':
      event = { ...base, kind: 'stop', message: str(p.prompt_response), stopHookActive: p.stop_hook_active === true };
      break;
    case 'SessionStart':
      event = { ...base, kind: 'session-start' };
      break;
    case 'SessionEnd':
      event = { ...base, kind: 'session-end' };
      break;
    default:
      // model, tool-selection, compression and notification events say nothing about stalls
      return undefined;
  }
  return parsedEvent(event, hookEvent);
}
