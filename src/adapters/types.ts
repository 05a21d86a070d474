import type { AgentName, Decision, Event } from '../types.ts';
import type { Dialect } from './dialect.ts';

/** An event read from one agent's hook payload, with the hook event it came from (for rendering). */
export interface Parsed {
  event: Event;
  /** Outcomes the event carries, observed before it (Claude Code's PostToolBatch lists its calls' results). */
  outcomes?: Event[];
  /** The agent's own name for the hook event (PostToolUse, AfterTool, postToolUse, ...). */
  hookEvent: string;
}

export interface Adapter {
  name: AgentName;
  /** The Event in a payload, or undefined when the payload is not one stallguard acts on. */
  parse(payload: Record<string, unknown>, env?: NodeJS.ProcessEnv): Parsed | undefined;
  /** The agent's response for a decision, as the exact text to print on stdout ('' for none). */
  render(parsed: Parsed, decision: Decision): string;
  /** The agent's tool names and result texts, read into shared facts. */
  dialect: Dialect;
}

export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/** The parse result, without the optional fields the payload did not carry (absent rather than undefined). */
export function parsedEvent(event: Event, hookEvent: string): Parsed {
  for (const k of ['task', 'cwd'] as const) if (k in event && event[k] === undefined) delete event[k];
  return { event, hookEvent };
}
