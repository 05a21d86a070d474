import type { Event, ToolCall } from '../types.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { piDialect } from '../adapters/pi/dialect.ts';
import { parseJsonLine, type ReadStats, type ReplayItem, type TranscriptSink } from './types.ts';

// pi's session files (@mariozechner/pi-coding-agent 0.73.1, docs/session-format.md):
// ~/.pi/agent/sessions/--<cwd with / as ->--/<time>_<uuid>.jsonl (the agent folder moves with
// PI_CODING_AGENT_DIR). A header line {type: "session", version: 3, id, cwd, parentSession?}, then entries
// {type, id, parentId, timestamp}; a "message" entry holds one message: the person's (role user), the
// model's (assistant: text and {type: "toolCall", id, name, arguments} blocks, usage), or a call's result
// (toolResult: toolCallId, content, isError). Entries form a tree (/tree, /fork branch it): they are read
// in the order written, every branch's calls included, since they all happened.

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function text(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map(record)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

function n(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

export function* piSessionEvents(
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink: TranscriptSink = {},
): Generator<ReplayItem> {
  let step = 0;
  const pending = new Map<string, { call: ToolCall; step: number }>();
  for (const line of lines) {
    const o = parseJsonLine(line, stats);
    if (!o) continue;
    if (o.type === 'session') {
      sink.info?.({
        ...(typeof o.id === 'string' ? { session: o.id } : {}),
        ...(typeof o.cwd === 'string' ? { cwd: o.cwd } : {}),
        ...(typeof o.parentSession === 'string' ? { parent: o.parentSession } : {}),
      });
      continue;
    }
    if (o.type !== 'message') continue;
    const m = record(o.message);
    const time = typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : NaN;
    const base = { session, agent: { id: 'main' }, ...(Number.isFinite(time) ? { time } : {}) };
    if (m.role === 'user') {
      const prompt = text(m.content);
      if (prompt.trim()) yield { event: { ...base, kind: 'prompt', prompt } as Event, step };
    } else if (m.role === 'assistant') {
      const calls = (Array.isArray(m.content) ? m.content : [])
        .map(record)
        .filter((b) => b.type === 'toolCall' && typeof b.name === 'string');
      const usage = record(m.usage);
      if (sink.usage && Object.keys(usage).length > 0)
        sink.usage({
          key: typeof m.responseId === 'string' ? m.responseId : typeof o.id === 'string' ? o.id : undefined,
          tokens: {
            input: n(usage.input),
            output: n(usage.output),
            cacheWrite: n(usage.cacheWrite),
            cacheRead: n(usage.cacheRead),
          },
          ...(typeof m.model === 'string' ? { model: m.model } : {}),
          ...(calls.length > 0 ? { step } : {}),
        });
      for (const b of calls) {
        const call: ToolCall = {
          name: b.name as string,
          input: b.arguments ?? {},
          ...(typeof b.id === 'string' ? { id: b.id } : {}),
        };
        if (call.id) pending.set(call.id, { call, step });
        yield { event: { ...base, kind: 'pre-tool', call }, step: step++ };
      }
    } else if (m.role === 'toolResult') {
      const id = typeof m.toolCallId === 'string' ? m.toolCallId : undefined;
      const known = id ? pending.get(id) : undefined;
      if (id) pending.delete(id);
      const call = known?.call ?? {
        name: typeof m.toolName === 'string' ? m.toolName : 'tool',
        input: {},
        ...(id ? { id } : {}),
      };
      const ok = m.isError === true ? false : m.isError === false ? true : null;
      yield {
        event: describeEvent({ ...base, kind: 'post-tool', call, output: text(m.content), ok }, piDialect),
        step: known?.step ?? step,
      };
    }
  }
}
