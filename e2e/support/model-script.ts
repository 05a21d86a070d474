// A scripted model, independent of any one vendor's API: what the fake model says on each turn. The
// fake servers (fake-anthropic.ts; an OpenAI or Gemini one beside it) only translate a turn into their
// wire format. Turn selection is stateless, so a script replays the same way whatever the client retries
// or runs in parallel: the turn is the number of assistant messages already in the conversation, and a
// conversation is a subagent's when its first user message carries the script's marker.

/**
 * One piece of a model turn: some text, or a tool call with its input (and the namespace of a client that
 * groups its tools, as Codex does its subagent tools under multi_agent_v1).
 */
export type Block = { text: string } | { tool: string; input: Record<string, unknown>; namespace?: string };

/** What the model says in one turn. A turn without a tool call ends the agent's work. */
export type Turn = Block[];

export interface ModelScript {
  /** The main agent's turns, in order. */
  main: Turn[];
  /** A subagent's turns, in order (every subagent follows the same script). */
  sub?: Turn[];
  /** Text found in a subagent's first user message (its task prompt), and never in the main agent's. */
  subMarker?: string;
}

/** Said when a conversation has gone past its script: the model ends its turn. */
export const SCRIPT_DONE: Turn = [{ text: 'SCRIPT-EXHAUSTED: nothing more to do.' }];

export interface Conversation {
  /** Assistant messages already in the conversation. */
  assistantTurns: number;
  /** The text of its first user message. */
  firstUserText: string;
}

export function isSubagent(script: ModelScript, conversation: Conversation): boolean {
  return !!script.subMarker && conversation.firstUserText.includes(script.subMarker);
}

/** The turn the model plays next in a conversation. */
export function nextTurn(script: ModelScript, conversation: Conversation): Turn {
  const turns = isSubagent(script, conversation) ? (script.sub ?? []) : script.main;
  return turns[conversation.assistantTurns] ?? SCRIPT_DONE;
}

/** A script with every string in it passed through `f` (to put the scratch project's path into tool inputs). */
export function mapStrings(script: ModelScript, f: (s: string) => string): ModelScript {
  const walk = (v: unknown): unknown =>
    typeof v === 'string'
      ? f(v)
      : Array.isArray(v)
        ? v.map(walk)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return walk(script) as ModelScript;
}

/** `n` copies of the same turn. */
export function repeatTurn(n: number, turn: Turn): Turn[] {
  return Array.from({ length: n }, () => turn);
}
