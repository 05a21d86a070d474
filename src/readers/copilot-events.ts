import type { Actor, Event, ToolCall } from '../types.ts';
import { COPILOT_SPAWN_TOOLS, spawnType } from '../adapters/copilot/parse.ts';
import { copilotDialect } from '../adapters/copilot/dialect.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { parseMaybeJson } from '../core/call-fields.ts';
import { parseJsonLine, type ReadStats, type ReplayItem, type TranscriptSink } from './types.ts';

// GitHub Copilot CLI's session log: $COPILOT_HOME/session-state/<session id>/events.jsonl (1.0.x). Each line
// is {type, data, id, timestamp, parentId}, plus a top-level agentId on what a subagent did (its own calls
// and model usage, in the same file). A call is tool.execution_start {toolCallId, toolName, arguments}
// answered by tool.execution_complete {toolCallId, success, result.content | error.message}; a shell call
// succeeds whatever its exit code, which is in the trailer of its result. Model usage is one
// session.usage_record per model response, keyed by its apiCallId, written before the calls it made.

interface Started {
  call: ToolCall;
  agent: Actor;
  step: number;
}

function n(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0;
}

export function* copilotEventsEvents(
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink: TranscriptSink = {},
): Generator<ReplayItem> {
  const types = new Map<string, string>();
  const started = new Map<string, Started>();
  let step = 0;
  for (const line of lines) {
    const o = parseJsonLine(line, stats);
    if (!o) continue;
    if (typeof o.type !== 'string' || !o.data || typeof o.data !== 'object') {
      stats.skipped++;
      continue;
    }
    const d = o.data as Record<string, unknown>;
    const agentId = typeof o.agentId === 'string' ? o.agentId : undefined;
    const agent: Actor = agentId
      ? { id: agentId, ...(types.has(agentId) ? { type: types.get(agentId)! } : {}) }
      : { id: 'main' };
    const time = typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : NaN;
    const base = { session, agent, ...(Number.isFinite(time) ? { time } : {}) };
    switch (o.type) {
      case 'session.start': {
        const context = (d.context ?? {}) as Record<string, unknown>;
        sink.info?.({
          ...(typeof d.sessionId === 'string' ? { session: d.sessionId } : {}),
          ...(typeof context.cwd === 'string' ? { cwd: context.cwd } : {}),
        });
        break;
      }
      case 'user.message':
        // a subagent's first message is the task it was given, counted as the spawn
        if (!agentId && typeof d.content === 'string' && d.content.trim())
          yield { event: { ...base, kind: 'prompt', prompt: d.content } as Event, step };
        break;
      case 'subagent.started':
        if (agentId)
          types.set(
            agentId,
            typeof d.agentType === 'string' ? d.agentType : typeof d.agentName === 'string' ? d.agentName : 'task',
          );
        break;
      case 'session.usage_record': {
        const u = (d.usage ?? {}) as Record<string, unknown>;
        const cacheRead = n(u.cacheReadTokens);
        sink.usage?.({
          ...(typeof u.apiCallId === 'string' ? { key: u.apiCallId } : {}),
          ...(typeof u.model === 'string' ? { model: u.model } : {}),
          // inputTokens counts the cached part too
          tokens: {
            input: Math.max(0, n(u.inputTokens) - cacheRead),
            output: n(u.outputTokens),
            cacheWrite: n(u.cacheWriteTokens),
            cacheRead,
          },
          // the record comes before the calls the response made
          ...(n(u.numToolCalls) > 0 ? { step } : {}),
        });
        break;
      }
      case 'tool.execution_start': {
        if (typeof d.toolCallId !== 'string' || typeof d.toolName !== 'string') {
          stats.skipped++;
          break;
        }
        const call: ToolCall = { name: d.toolName, input: parseMaybeJson(d.arguments ?? {}), id: d.toolCallId };
        started.set(d.toolCallId, { call, agent, step });
        if (COPILOT_SPAWN_TOOLS.has(call.name))
          yield { event: { ...base, kind: 'spawn', call, childType: spawnType(call.input) }, step };
        else yield { event: { ...base, kind: 'pre-tool', call }, step };
        step++;
        break;
      }
      case 'tool.execution_complete': {
        const s = typeof d.toolCallId === 'string' ? started.get(d.toolCallId) : undefined;
        if (!s) break;
        started.delete(d.toolCallId as string);
        const result = (d.result ?? {}) as Record<string, unknown>;
        const error = (d.error ?? {}) as Record<string, unknown>;
        const output =
          d.success === false
            ? typeof error.message === 'string'
              ? error.message
              : ''
            : typeof result.content === 'string'
              ? result.content
              : '';
        const ok = d.success === false ? false : d.success === true ? true : null;
        // the dialect reads a shell call's exit code from the trailer of its result, as the hook does
        yield {
          event: describeEvent(
            { ...base, agent: s.agent, kind: 'post-tool', call: s.call, output, ok },
            copilotDialect,
          ),
          step: s.step,
        };
        break;
      }
      default:
        // turns, hooks, system messages, model changes: nothing about calls
        break;
    }
  }
}
