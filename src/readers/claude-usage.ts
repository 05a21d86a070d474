import type { UsageRecord } from './types.ts';

// The usage of one Claude API response, from a transcript or stream-json line. Claude Code writes a
// response that has several content blocks as several lines, each with the same message id, request id
// and usage; the key lets the caller count the response once.

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

export function claudeUsage(line: Record<string, unknown>, message: Record<string, unknown>, step: number | undefined): UsageRecord | undefined {
  const u = message.usage as Record<string, unknown> | undefined;
  if (!u || typeof u !== 'object') return undefined;
  const id = typeof message.id === 'string' ? message.id : undefined;
  const request = typeof line.requestId === 'string' ? line.requestId : '';
  const split = u.cache_creation as Record<string, unknown> | undefined;
  const oneHour = split && typeof split === 'object' ? count(split.ephemeral_1h_input_tokens) : 0;
  const record: UsageRecord = {
    tokens: { input: count(u.input_tokens), output: count(u.output_tokens), cacheWrite: count(u.cache_creation_input_tokens), cacheRead: count(u.cache_read_input_tokens) },
  };
  if (id) record.key = `${id}:${request}`;
  if (typeof message.model === 'string') record.model = message.model;
  if (oneHour > 0) record.cacheWrite1h = Math.min(oneHour, record.tokens.cacheWrite);
  if (step !== undefined) record.step = step;
  return record;
}

/** Whether a message's content has a tool call, so its usage belongs to the call it makes. */
export function hasToolUse(content: unknown): boolean {
  return Array.isArray(content) && content.some((b) => b && typeof b === 'object' && (b as Record<string, unknown>).type === 'tool_use');
}
