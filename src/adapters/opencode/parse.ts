import type { Actor, Event } from '../../types.ts';
import { type Parsed, parsedEvent, str } from '../types.ts';

// opencode's plugin hooks (opencode 1.18.33, @opencode-ai/plugin's Hooks type; docs/agents.md), as the
// stallguard plugin (src/plugin/opencode.ts) hands them over: the hook's name, its input and output
// objects, and who made the call. A subagent runs in a child session of its own; the plugin files its
// calls under the root session, with the child session as the agent, as Claude Code's agent_id is.
//
// - tool.execute.before {tool, sessionID, callID} {args}: before every call; `task` starts a subagent.
// - tool.execute.after {tool, sessionID, callID, args} {title, output, metadata}: only after a call that
//   returned; a call that threw (an edit whose oldString is not there, a missing file) has none.
// - tool.error: the plugin's own name for such a call, seen as its tool part turning to status "error"
//   (the message.part.updated bus event) {tool, callID, args} {error}.
// - chat.message {sessionID, agent} {message, parts}: a new user message in a session.

export const OPENCODE_SPAWN_TOOL = 'task';

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function actor(v: unknown): Actor | undefined {
  const a = record(v);
  const id = str(a.id);
  if (!id) return undefined;
  const type = str(a.type);
  return type ? { id, type } : { id };
}

/** The text of a user message's parts. */
function promptText(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  const text = parts
    .map((p) => record(p))
    .filter((p) => p.type === 'text' && typeof p.text === 'string' && p.synthetic !== true)
    .map((p) => p.text as string);
  return text.length > 0 ? text.join('\n') : undefined;
}

/** Whether a returned call succeeded: the shell tool reports its exit code; every other call that returned did. */
export function opencodeOk(tool: string, metadata: unknown): boolean {
  const exit = record(metadata).exit;
  return tool === 'bash' && typeof exit === 'number' ? exit === 0 : true;
}

export function parseOpencode(p: Record<string, unknown>): Parsed | undefined {
  const hook = str(p.hook);
  const session = str(p.session);
  const agent = actor(p.agent);
  if (!hook || !session || !agent) return undefined;
  const input = record(p.input);
  const output = record(p.output);
  const base = { session, agent, cwd: str(p.cwd), time: Date.now() };
  const tool = str(input.tool);
  const callId = str(input.callID);
  const call = (args: unknown) => ({ name: tool!, input: args ?? {}, ...(callId ? { id: callId } : {}) });
  let event: Event;
  switch (hook) {
    case 'chat.message':
      // a subagent's task arrives as a message in its own session: it is not a new task of the person's
      if (agent.id !== 'main') return undefined;
      event = { ...base, kind: 'prompt', prompt: promptText(output.parts) };
      break;
    case 'tool.execute.before': {
      if (!tool) return undefined;
      const args = output.args;
      event =
        tool === OPENCODE_SPAWN_TOOL
          ? { ...base, kind: 'spawn', call: call(args), childType: str(record(args).subagent_type) ?? 'agent' }
          : { ...base, kind: 'pre-tool', call: call(args) };
      break;
    }
    case 'tool.execute.after':
      if (!tool) return undefined;
      // what its tools and texts mean (a to-do list, a rejected edit) is read by its dialect (./dialect.ts)
      event = {
        ...base,
        kind: 'post-tool',
        call: call(input.args),
        output: typeof output.output === 'string' ? output.output : '',
        ok: opencodeOk(tool, output.metadata),
      };
      break;
    case 'tool.error':
      if (!tool) return undefined;
      event = { ...base, kind: 'post-tool', call: call(input.args), output: str(output.error) ?? 'error', ok: false };
      break;
    default:
      return undefined;
  }
  return parsedEvent(event, hook);
}
