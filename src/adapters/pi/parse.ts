import type { Event } from '../../types.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// pi's extension events (@mariozechner/pi-coding-agent 0.73.1, docs/extensions.md; docs/agents.md), as
// the stallguard extension (src/plugin/pi.ts) hands them over: the event's name, the event object, and
// the session (ctx.sessionManager.getSessionId()). pi has no subagents of its own: an extension that
// starts one runs another pi process, with a session of its own.
//
// - before_agent_start {prompt}: the person's prompt, before the agent loop.
// - tool_call {toolName, toolCallId, input}: before a call; it can be blocked.
// - tool_result {toolName, toolCallId, input, content, details, isError}: after every call, failed ones
//   included (a shell command exiting non-zero is isError, with "Command exited with code N").
// - agent_end {messages}: the agent loop ended; the last assistant message is its closing text.

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The text blocks of a message's content. */
function textOf(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const text = content
    .map(record)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string);
  return text.length > 0 ? text.join('\n') : undefined;
}

function closingText(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  const last = messages
    .map(record)
    .filter((m) => m.role === 'assistant')
    .at(-1);
  return last ? textOf(last.content) : undefined;
}

export function parsePi(p: Record<string, unknown>): Parsed | undefined {
  const hook = str(p.hook);
  const session = str(p.session);
  if (!hook || !session) return undefined;
  const e = record(p.event);
  const base = { session, agent: { id: 'main' }, cwd: str(p.cwd), time: Date.now() };
  const tool = str(e.toolName);
  const callId = str(e.toolCallId);
  const call = tool ? { name: tool, input: e.input ?? {}, ...(callId ? { id: callId } : {}) } : undefined;
  let event: Event;
  switch (hook) {
    case 'before_agent_start':
      event = { ...base, kind: 'prompt', prompt: str(e.prompt) };
      break;
    case 'tool_call':
      if (!call) return undefined;
      event = { ...base, kind: 'pre-tool', call };
      break;
    case 'tool_result': {
      if (!call) return undefined;
      const output = textOf(e.content) ?? '';
      // a rejected edit is told by its text, in the dialect (./dialect.ts)
      event = {
        ...base,
        kind: 'post-tool',
        call,
        output,
        ok: e.isError === true ? false : e.isError === false ? true : null,
      };
      break;
    }
    case 'agent_end':
      event = { ...base, kind: 'stop', message: closingText(e.messages) };
      break;
    default:
      return undefined;
  }
  return parsedEvent(event, hook);
}
