import type { UsageRecord } from './types.ts';

// The usage of one Claude API response, from a transcript or stream-json line. Claude Code writes a
// response that has several content blocks as several lines, each with the same message id, request id
// and usage; the key lets the caller count the response once.

function count(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

export function claudeUsage(
  line: Record<string, unknown>,
  message: Record<string, unknown>,
  step: number | undefined,
): UsageRecord | undefined {
  const u = message.usage as Record<string, unknown> | undefined;
  if (!u || typeof u !== 'object') return undefined;
  const id = typeof message.id === 'string' ? message.id : undefined;
  const request = typeof line.requestId === 'string' ? line.requestId : '';
  const split = u.cache_creation as Record<string, unknown> | undefined;
  const oneHour = split && typeof split === 'object' ? count(split.ephemeral_1h_input_tokens) : 0;
  const record: UsageRecord = {
    tokens: {
      input: count(u.input_tokens),
      output: count(u.output_tokens),
      cacheWrite: count(u.cache_creation_input_tokens),
      cacheRead: count(u.cache_read_input_tokens),
    },
  };
  if (id) record.key = `${id}:${request}`;
  if (typeof message.model === 'string') record.model = message.model;
  if (oneHour > 0) record.cacheWrite1h = Math.min(oneHour, record.tokens.cacheWrite);
  if (step !== undefined) record.step = step;
  return record;
}

/** Whether a message's content has a tool call, so its usage belongs to the call it makes. */
export function hasToolUse(content: unknown): boolean {
  return (
    Array.isArray(content) &&
    content.some((b) => b && typeof b === 'object' && (b as Record<string, unknown>).type === 'tool_use')
  );
}

/**
 * Merges the lines of one response into one record, emitted when a line of another response arrives (or
 * at flush): the largest count of each kind (a line written mid-stream can carry a partial output count)
 * and the step of the first call the response made.
 */
export class UsageCoalescer {
  private pending: UsageRecord | undefined;

  constructor(private readonly emit: (record: UsageRecord) => void) {}

  push(record: UsageRecord): void {
    const p = this.pending;
    if (p && record.key !== undefined && p.key === record.key) {
      for (const k of ['input', 'output', 'cacheWrite', 'cacheRead'] as const)
        p.tokens[k] = Math.max(p.tokens[k], record.tokens[k]);
      if (record.cacheWrite1h !== undefined) p.cacheWrite1h = Math.max(p.cacheWrite1h ?? 0, record.cacheWrite1h);
      if (p.step === undefined && record.step !== undefined) p.step = record.step;
      if (p.model === undefined && record.model !== undefined) p.model = record.model;
      return;
    }
    this.flush();
    this.pending = { ...record, tokens: { ...record.tokens } };
  }

  flush(): void {
    if (this.pending) this.emit(this.pending);
    this.pending = undefined;
  }
}
