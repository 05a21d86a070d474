import type { Actor, Event } from '../types.ts';
import { stableJson } from '../core/stable-json.ts';
import { parseJsonLine, type ReadStats, type ReplayItem, type TranscriptSink } from './types.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { geminiDialect } from '../adapters/gemini/dialect.ts';

// Gemini CLI's chat recording: ~/.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl (a subagent's in
// chats/<parent session id>/<id>.jsonl). Since 0.2x it is JSONL: a metadata line {sessionId, projectHash,
// ...}, then message records {id, timestamp, type: user|gemini|info|error|warning, content, toolCalls?,
// tokens?, model?}. A message is appended again, whole, each time it grows (its tool calls complete, its
// token count arrives), so the last record with an id is the one that counts; {$set} lines update
// metadata and {$rewindTo} lines rewind the conversation (the calls made still happened, so they stay).
// Earlier versions wrote one pretty-printed JSON document per session (session-*.json) holding the same
// messages; that form is read whole, since it cannot be split by lines.

interface Message {
  id: string;
  type: string;
  content?: unknown;
  toolCalls?: unknown;
  tokens?: unknown;
  model?: unknown;
  timestamp?: unknown;
}

function partsText(parts: unknown): string {
  if (typeof parts === 'string') return parts;
  if (!Array.isArray(parts)) return parts && typeof parts === 'object' ? partsText([parts]) : '';
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      if (!p || typeof p !== 'object') return '';
      const o = p as Record<string, unknown>;
      if (typeof o.text === 'string') return o.text;
      const fr = o.functionResponse as Record<string, unknown> | undefined;
      if (fr && typeof fr === 'object') {
        const r = fr.response as Record<string, unknown> | undefined;
        if (r && typeof r === 'object')
          return typeof r.output === 'string' ? r.output : typeof r.error === 'string' ? r.error : stableJson(r);
      }
      return '';
    })
    .join('\n');
}

function n(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

class GeminiMessages {
  step = 0;
  agent: Actor = { id: 'main' };
  constructor(
    private readonly session: string,
    private readonly sink: TranscriptSink,
  ) {}

  /** Closes the last response's batch. */
  *finish(): Generator<ReplayItem> {
    if (this.step > 0)
      yield { event: { session: this.session, agent: this.agent, kind: 'batch-end' }, step: this.step };
  }

  *events(m: Message): Generator<ReplayItem> {
    const time = typeof m.timestamp === 'string' ? Date.parse(m.timestamp) : NaN;
    const base = { session: this.session, agent: this.agent, ...(Number.isFinite(time) ? { time } : {}) };
    if (m.type === 'user') {
      const prompt = partsText(m.content);
      if (prompt.trim()) yield { event: { ...base, kind: 'prompt', prompt } as Event, step: this.step };
      return;
    }
    if (m.type !== 'gemini') return;
    const calls = Array.isArray(m.toolCalls)
      ? (m.toolCalls as Record<string, unknown>[]).filter(
          (c) => c && typeof c === 'object' && typeof c.name === 'string',
        )
      : [];
    if (m.tokens && typeof m.tokens === 'object' && this.sink.usage) {
      const t = m.tokens as Record<string, unknown>;
      const cached = n(t.cached);
      // promptTokenCount includes the cached part; thoughts are billed as output
      this.sink.usage({
        key: m.id,
        tokens: {
          input: Math.max(0, n(t.input) - cached) + n(t.tool),
          output: n(t.output) + n(t.thoughts),
          cacheWrite: 0,
          cacheRead: cached,
        },
        ...(typeof m.model === 'string' ? { model: m.model } : {}),
        ...(calls.length > 0 ? { step: this.step } : {}),
      });
    }
    // the calls of one model response are one batch: one before them closes the previous response's
    if (calls.length > 0)
      yield { event: { session: this.session, agent: this.agent, kind: 'batch-end' }, step: this.step };
    for (const c of calls) {
      const call = { name: c.name as string, input: c.args ?? {}, ...(typeof c.id === 'string' ? { id: c.id } : {}) };
      yield { event: { ...base, kind: 'pre-tool', call }, step: this.step };
      const output =
        partsText(c.result) ||
        (typeof c.resultDisplay === 'string' ? c.resultDisplay : '') ||
        (typeof c.error === 'string' ? c.error : '');
      const ok = c.status === 'success' ? true : c.status === 'error' || c.status === 'cancelled' ? false : null;
      yield { event: describeEvent({ ...base, kind: 'post-tool', call, output, ok }, geminiDialect), step: this.step };
      this.step++;
    }
  }
}

function isMessage(o: Record<string, unknown>): o is Record<string, unknown> & Message {
  return typeof o.id === 'string' && typeof o.type === 'string';
}

export function* geminiChatEvents(
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink: TranscriptSink = {},
): Generator<ReplayItem> {
  const reader = new GeminiMessages(session, sink);
  const meta = (o: Record<string, unknown>) => {
    if (o.kind === 'subagent')
      reader.agent = { id: typeof o.sessionId === 'string' ? o.sessionId : session, type: 'subagent' };
    sink.info?.({ ...(typeof o.sessionId === 'string' ? { session: o.sessionId } : {}) });
  };
  let pending: Message | undefined;
  const flushed = new Set<string>();
  let legacy: string[] | undefined;
  let first = true;
  for (const line of lines) {
    if (legacy) {
      legacy.push(line);
      continue;
    }
    if (first && line.trim().length > 0) {
      first = false;
      if (line.trim() === '{') {
        legacy = [line];
        continue;
      }
    }
    const o = parseJsonLine(line, stats);
    if (!o) continue;
    if (isMessage(o)) {
      if (pending?.id === o.id) pending = o;
      else if (!flushed.has(o.id)) {
        if (pending) {
          yield* reader.events(pending);
          flushed.add(pending.id);
        }
        pending = o;
      }
    } else if (typeof o.sessionId === 'string' && 'projectHash' in o) meta(o);
    else if (!('$set' in o) && !('$rewindTo' in o)) stats.skipped++;
  }
  if (pending) yield* reader.events(pending);
  if (!legacy) return yield* reader.finish();
  const count = legacy.filter((l) => l.trim()).length;
  stats.lines += count;
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(legacy.join('\n')) as Record<string, unknown>;
  } catch {
    stats.skipped += count;
    return;
  }
  meta(doc);
  for (const m of Array.isArray(doc.messages) ? doc.messages : [])
    if (m && typeof m === 'object' && isMessage(m as Record<string, unknown>)) yield* reader.events(m as Message);
  yield* reader.finish();
}
