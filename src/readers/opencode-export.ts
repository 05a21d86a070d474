import type { Event } from '../types.ts';
import { opencodeOk } from '../adapters/opencode/parse.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { opencodeDialect } from '../adapters/opencode/dialect.ts';
import type { ReadStats, ReplayItem, TranscriptSink } from './types.ts';

// opencode keeps its sessions in an SQLite database (~/.local/share/opencode/opencode.db in 1.18.33),
// which Node 20 cannot open without a native module; `opencode export <session id>` writes one session as
// a pretty-printed JSON document, and that is what scan reads: {info: {id, directory, ...}, messages:
// [{info: {role, modelID, tokens}, parts: [{type: "text", text, synthetic?} | {type: "tool", tool, callID,
// state: {status: completed|error, input, output, error, metadata}} | ...]}]}. A subagent's calls are in
// its own (child) session, exported apart.

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function n(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

export function* opencodeExportEvents(
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink: TranscriptSink = {},
): Generator<ReplayItem> {
  const text: string[] = [];
  for (const line of lines) text.push(line);
  const count = text.filter((l) => l.trim()).length;
  stats.lines += count;
  let doc: Record<string, unknown>;
  try {
    doc = record(JSON.parse(text.join('\n')));
  } catch {
    stats.skipped += count;
    return;
  }
  const info = record(doc.info);
  sink.info?.({
    ...(typeof info.id === 'string' ? { session: info.id } : {}),
    ...(typeof info.directory === 'string' ? { cwd: info.directory } : {}),
    ...(typeof info.parentID === 'string' ? { parent: info.parentID } : {}),
  });
  let step = 0;
  for (const m of Array.isArray(doc.messages) ? doc.messages.map(record) : []) {
    const mi = record(m.info);
    const parts = Array.isArray(m.parts) ? m.parts.map(record) : [];
    const created = record(mi.time).created;
    const base = { session, agent: { id: 'main' }, ...(typeof created === 'number' ? { time: created } : {}) };
    if (mi.role === 'user') {
      const prompt = parts
        .filter((p) => p.type === 'text' && typeof p.text === 'string' && p.synthetic !== true)
        .map((p) => p.text as string)
        .join('\n');
      if (prompt.trim()) yield { event: { ...base, kind: 'prompt', prompt } as Event, step };
      continue;
    }
    if (mi.role !== 'assistant') continue;
    const calls = parts.filter((p) => p.type === 'tool' && typeof p.tool === 'string');
    const tokens = record(mi.tokens);
    const cache = record(tokens.cache);
    if (sink.usage && Object.keys(tokens).length > 0)
      sink.usage({
        ...(typeof mi.id === 'string' ? { key: mi.id } : {}),
        // reasoning is billed as output
        tokens: {
          input: n(tokens.input),
          output: n(tokens.output) + n(tokens.reasoning),
          cacheWrite: n(cache.write),
          cacheRead: n(cache.read),
        },
        ...(typeof mi.modelID === 'string' ? { model: mi.modelID } : {}),
        ...(calls.length > 0 ? { step } : {}),
      });
    for (const p of calls) {
      const state = record(p.state);
      const call = {
        name: p.tool as string,
        input: state.input ?? {},
        ...(typeof p.callID === 'string' ? { id: p.callID } : {}),
      };
      yield { event: { ...base, kind: 'pre-tool', call }, step };
      if (state.status === 'completed')
        yield {
          event: describeEvent(
            {
              ...base,
              kind: 'post-tool',
              call,
              output: typeof state.output === 'string' ? state.output : '',
              ok: opencodeOk(call.name, state.metadata),
            },
            opencodeDialect,
          ),
          step,
        };
      else if (state.status === 'error')
        yield {
          event: describeEvent(
            { ...base, kind: 'post-tool', call, output: typeof state.error === 'string' ? state.error : '', ok: false },
            opencodeDialect,
          ),
          step,
        };
      step++;
    }
  }
}
