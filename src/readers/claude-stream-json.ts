import type { Actor } from '../types.ts';
import { ClaudeMessageReader } from './claude-messages.ts';
import { claudeUsage, hasToolUse, UsageCoalescer } from './claude-usage.ts';
import { parseJsonLine, type ReadStats, type ReplayItem, type TranscriptSink } from './types.ts';

// `claude -p --output-format stream-json --verbose`: one JSON object per line. Messages from inside a
// subagent carry parent_tool_use_id, the id of the Agent/Task call that started it. The prompt itself is
// not in the stream, so a run is one task.

export function* claudeStreamJsonEvents(
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink: TranscriptSink = {},
): Generator<ReplayItem> {
  const reader = new ClaudeMessageReader(session);
  const usage = sink.usage ? new UsageCoalescer(sink.usage) : undefined;
  let cwd: string | undefined;
  for (const line of lines) {
    const o = parseJsonLine(line, stats);
    if (!o) continue;
    if (o.type === 'system' && o.subtype === 'init' && typeof o.cwd === 'string') {
      cwd = o.cwd;
      sink.info?.({ cwd, ...(typeof o.session_id === 'string' ? { session: o.session_id } : {}) });
    }
    if (o.type !== 'user' && o.type !== 'assistant') continue;
    const message = o.message as Record<string, unknown> | undefined;
    if (!message || typeof message !== 'object') {
      stats.skipped++;
      continue;
    }
    if (o.type === 'assistant' && usage) {
      const record = claudeUsage(o, message, hasToolUse(message.content) ? reader.nextStep : undefined);
      if (record) usage.push(record);
    }
    const parent = typeof o.parent_tool_use_id === 'string' ? o.parent_tool_use_id : undefined;
    const agent: Actor = parent ? { id: parent, type: reader.typeOfSpawn(parent) ?? 'subagent' } : { id: 'main' };
    yield* reader.events({
      role: o.type,
      content: message.content,
      agent,
      toolUseResult: o.tool_use_result,
      ...(typeof message.id === 'string' ? { response: message.id } : {}),
      ...(cwd ? { cwd } : {}),
    });
  }
  yield* reader.finish();
  usage?.flush();
}
