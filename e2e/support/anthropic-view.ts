import type { AnthropicBlock, AnthropicMessage, MessagesRequest } from './fake-anthropic.ts';

// Reading what reached the model out of recorded Messages API requests. Claude Code appends hook text
// to the user message that carries the tool result, as
// `<system-reminder>\nPostToolUseFailure:Bash hook additional context: ...\n</system-reminder>`.

export interface Reminder {
  /** The hook event and tool as Claude Code labels them: `PostToolUseFailure:Bash`. */
  label: string;
  /** `additional context` or `blocking error` and the like. */
  kind: string;
  text: string;
}

export interface ToolResult {
  id: string;
  text: string;
  isError: boolean;
  /** Hook text delivered beside this result, in the same user message (the last result of a message, when it holds several). */
  reminders: Reminder[];
}

function blocks(m: AnthropicMessage): AnthropicBlock[] {
  return typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
}

function flatText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((c) => (c && typeof c === 'object' && 'text' in c ? String((c as { text: unknown }).text) : ''))
      .join('\n');
  return '';
}

const REMINDER =
  /<system-reminder>\s*(\S+) hook ([a-z ]+?)(?: from command: "[^"]*")?: ([\s\S]*?)\s*<\/system-reminder>/g;

export function remindersIn(text: string): Reminder[] {
  return [...text.matchAll(REMINDER)].map((m) => ({ label: m[1]!, kind: m[2]!, text: m[3]! }));
}

/** The tool results of a conversation in order, each with the hook text that came with it. */
export function toolResults(request: MessagesRequest): ToolResult[] {
  const out: ToolResult[] = [];
  for (const m of request.messages ?? []) {
    if (m.role !== 'user') continue;
    const bs = blocks(m);
    const reminders = bs.filter((b) => b.type === 'text').flatMap((b) => remindersIn(b.text ?? ''));
    const results = bs.filter((b) => b.type === 'tool_result');
    for (const [i, b] of results.entries())
      out.push({
        id: b.tool_use_id ?? '',
        text: flatText(b.content),
        isError: b.is_error === true,
        reminders: i === results.length - 1 ? reminders : [],
      });
  }
  return out;
}

/** The tool calls the model made in a conversation, in order. */
export function toolUses(request: MessagesRequest): { id: string; name: string; input: Record<string, unknown> }[] {
  return (request.messages ?? [])
    .filter((m) => m.role === 'assistant')
    .flatMap(blocks)
    .filter((b) => b.type === 'tool_use')
    .map((b) => ({ id: b.id ?? '', name: b.name ?? '', input: (b.input ?? {}) as Record<string, unknown> }));
}

const BATCH_CONTEXT = /^PostToolBatch hook additional context: ([\s\S]*)$/;

/**
 * The additional context of PostToolBatch hooks: Claude Code 2.1.197 sends it as a system-role message of its
 * own after the batch's results (not as a reminder beside them), with how many tool results came before it.
 */
export function batchContexts(request: MessagesRequest): { afterResults: number; text: string }[] {
  const out: { afterResults: number; text: string }[] = [];
  let results = 0;
  for (const m of request.messages ?? []) {
    if (m.role === 'user') results += blocks(m).filter((b) => b.type === 'tool_result').length;
    if ((m.role as string) !== 'system') continue;
    for (const b of blocks(m)) {
      const hit = b.type === 'text' ? BATCH_CONTEXT.exec(b.text ?? '') : null;
      if (hit) out.push({ afterResults: results, text: hit[1]! });
    }
  }
  return out;
}

/** Every hook reminder anywhere in a request, system-role messages included. */
export function allReminders(request: MessagesRequest): Reminder[] {
  return (request.messages ?? []).flatMap(blocks).flatMap((b) => remindersIn(b.type === 'text' ? (b.text ?? '') : ''));
}

/** The request with the most messages: each request repeats the conversation so far, so this one holds all of it. */
export function longest(requests: MessagesRequest[]): MessagesRequest | undefined {
  return requests.reduce<MessagesRequest | undefined>(
    (a, r) => ((r.messages?.length ?? 0) >= (a?.messages?.length ?? 0) ? r : a),
    undefined,
  );
}
