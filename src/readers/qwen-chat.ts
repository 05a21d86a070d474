import type { Actor, Event, ToolCall } from '../types.ts';
import { QWEN_SPAWN_TOOLS } from '../adapters/qwen/parse.ts';
import { qwenDialect } from '../adapters/qwen/dialect.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { stableJson } from '../core/stable-json.ts';
import { parseJsonLine, type ReadStats, type ReplayItem, type TranscriptSink } from './types.ts';

// Qwen Code's chat recording (0.24): $QWEN_HOME/projects/<sanitised cwd>/chats/<session id>.jsonl, and each
// subagent's in ../subagents/<session id>/agent-<agent id>.jsonl. Lines like Claude Code's transcript
// ({uuid, parentUuid, sessionId, timestamp, type, cwd, message}) but with Gemini's message parts: an
// assistant line holds functionCall parts {id, name, args}; a tool_result line the functionResponse
// {id, name, response: {output | error}} and toolCallResult.status. The person's prompts have provenance
// "real_user"; a subagent's lines carry agentId and agentName. Model usage is the assistant line's
// usageMetadata (Gemini's counts).

interface Part {
  text?: unknown;
  functionCall?: { id?: unknown; name?: unknown; args?: unknown };
  functionResponse?: { id?: unknown; name?: unknown; response?: Record<string, unknown> };
}

function parts(o: Record<string, unknown>): Part[] {
  const m = o.message as Record<string, unknown> | undefined;
  return Array.isArray(m?.parts) ? (m.parts as Part[]).filter((p) => p && typeof p === 'object') : [];
}

function n(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

function responseText(r: Record<string, unknown> | undefined): { text: string; error: boolean } {
  if (!r || typeof r !== 'object') return { text: '', error: false };
  if (typeof r.error === 'string') return { text: r.error, error: true };
  return { text: typeof r.output === 'string' ? r.output : stableJson(r), error: false };
}

export function* qwenChatEvents(
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink: TranscriptSink = {},
): Generator<ReplayItem> {
  const calls = new Map<string, { call: ToolCall; step: number; agent: Actor }>();
  let step = 0;
  let told = false;
  for (const line of lines) {
    const o = parseJsonLine(line, stats);
    if (!o) continue;
    if (typeof o.type !== 'string') {
      stats.skipped++;
      continue;
    }
    if (!told && typeof o.sessionId === 'string') {
      told = true;
      sink.info?.({
        session: o.sessionId,
        ...(typeof o.cwd === 'string' ? { cwd: o.cwd } : {}),
        ...(typeof o.agentId === 'string' ? { parent: o.sessionId } : {}),
      });
    }
    const agent: Actor =
      typeof o.agentId === 'string'
        ? { id: o.agentId, ...(typeof o.agentName === 'string' ? { type: o.agentName } : {}) }
        : { id: 'main' };
    const time = typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : NaN;
    const base = {
      session,
      agent,
      ...(typeof o.cwd === 'string' ? { cwd: o.cwd } : {}),
      ...(Number.isFinite(time) ? { time } : {}),
    };
    if (o.type === 'user' && o.provenance === 'real_user') {
      const prompt = parts(o)
        .map((p) => (typeof p.text === 'string' ? p.text : ''))
        .join('\n');
      if (prompt.trim()) yield { event: { ...base, kind: 'prompt', prompt } as Event, step };
    } else if (o.type === 'assistant') {
      const made = parts(o).filter((p) => p.functionCall && typeof p.functionCall.name === 'string');
      const usage = o.usageMetadata as Record<string, unknown> | undefined;
      if (usage && typeof usage === 'object' && sink.usage) {
        const cached = n(usage.cachedContentTokenCount);
        // promptTokenCount includes the cached part; thoughts are billed as output
        sink.usage({
          ...(typeof o.uuid === 'string' ? { key: o.uuid } : {}),
          ...(typeof o.model === 'string' ? { model: o.model } : {}),
          tokens: {
            input: Math.max(0, n(usage.promptTokenCount) - cached),
            output: n(usage.candidatesTokenCount) + n(usage.thoughtsTokenCount),
            cacheWrite: 0,
            cacheRead: cached,
          },
          // a subagent writes its usage on a line of its own, just before the calls it made
          ...(made.length > 0 || parts(o).length === 0 ? { step } : {}),
        });
      }
      for (const p of made) {
        const fc = p.functionCall!;
        const id = typeof fc.id === 'string' ? fc.id : `call-${step}`;
        const call: ToolCall = { name: fc.name as string, input: fc.args ?? {}, id };
        calls.set(id, { call, step, agent });
        const input = call.input as Record<string, unknown>;
        if (QWEN_SPAWN_TOOLS.has(call.name))
          yield {
            event: {
              ...base,
              kind: 'spawn',
              call,
              childType: typeof input.subagent_type === 'string' ? input.subagent_type : 'general-purpose',
            },
            step,
          };
        else yield { event: { ...base, kind: 'pre-tool', call }, step };
        step++;
      }
    } else if (o.type === 'tool_result') {
      const status = (o.toolCallResult as Record<string, unknown> | undefined)?.status;
      for (const p of parts(o)) {
        const fr = p.functionResponse;
        const pending = fr && typeof fr.id === 'string' ? calls.get(fr.id) : undefined;
        if (!pending) continue;
        calls.delete(fr!.id as string);
        const { text, error } = responseText(fr!.response);
        const ok = status === 'success' ? true : status === 'error' || status === 'cancelled' || error ? false : null;
        yield {
          event: describeEvent(
            { ...base, agent: pending.agent, kind: 'post-tool', call: pending.call, output: text, ok },
            qwenDialect,
          ),
          step: pending.step,
        };
      }
    }
  }
}
