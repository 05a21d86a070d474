import type { Actor } from '../types.ts';
import { ClaudeMessageReader, isTypedPrompt } from './claude-messages.ts';
import { claudeUsage, hasToolUse, UsageCoalescer } from './claude-usage.ts';
import { parseJsonLine, type ReadStats, type ReplayItem, type TranscriptSink } from './types.ts';

// Claude Code's transcript: ~/.claude/projects/<project>/<session>.jsonl, and subagents' files beside it.
// Line types other than user and assistant (summary, system, file-history-snapshot, ...) are skipped.

export function* claudeTranscriptEvents(
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink: TranscriptSink = {},
): Generator<ReplayItem> {
  const reader = new ClaudeMessageReader(session);
  const usage = sink.usage ? new UsageCoalescer(sink.usage) : undefined;
  let told = false;
  for (const line of lines) {
    const o = parseJsonLine(line, stats);
    if (!o) continue;
    if (o.type !== 'user' && o.type !== 'assistant') continue;
    const message = o.message as Record<string, unknown> | undefined;
    if (!message || typeof message !== 'object') {
      stats.skipped++;
      continue;
    }
    if (!told && sink.info && typeof o.cwd === 'string') {
      sink.info({ cwd: o.cwd, ...(typeof o.sessionId === 'string' ? { session: o.sessionId } : {}) });
      told = true;
    }
    if (o.type === 'assistant' && usage) {
      const record = claudeUsage(o, message, hasToolUse(message.content) ? reader.nextStep : undefined);
      if (record) usage.push(record);
    }
    const agentId = typeof o.agentId === 'string' ? o.agentId : undefined;
    const agent: Actor = o.isSidechain === true && agentId ? { id: agentId, type: 'subagent' } : { id: 'main' };
    const time = typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : undefined;
    yield* reader.events({
      role: o.type,
      content: message.content,
      agent,
      prompt: o.type === 'user' && agent.id === 'main' && o.isMeta !== true && isTypedPrompt(message.content),
      toolUseResult: o.toolUseResult,
      ...(typeof message.id === 'string' ? { response: message.id } : {}),
      ...(typeof o.cwd === 'string' ? { cwd: o.cwd } : {}),
      ...(time && Number.isFinite(time) ? { time } : {}),
    });
  }
  yield* reader.finish();
  usage?.flush();
}
