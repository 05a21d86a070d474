import type { Actor, Event, ToolCall } from '../types.ts';
import { parseJsonLine, type ReadStats, type ReplayItem, type TokenCounts, type TranscriptSink } from './types.ts';
import { describeEvent } from '../adapters/dialect.ts';
import { codexDialect, jsonEnvelope } from '../adapters/codex/dialect.ts';

// Codex CLI's session "rollout": ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl. Codex calls the
// format unstable, so every field is read defensively. Since late 2025 each line is an envelope
// {timestamp, type, payload} with type session_meta | turn_context | response_item | event_msg | compacted;
// before that, the response items stood on their own lines after a first {id, timestamp, instructions}
// line. Calls are response items (function_call, custom_tool_call, local_shell_call) answered by a
// *_output item with the same call_id; token use is an event_msg of type token_count after each model
// response. A subagent runs in its own rollout, whose session_meta names the parent thread.

const ENVELOPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg', 'compacted']);
const ITEMS = new Set([
  'message',
  'reasoning',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'local_shell_call',
  'web_search_call',
]);
/** Tools that run a shell command: recorded as `Bash {command}`, the way Codex's hooks name them. */
const SHELL = new Set(['shell', 'shell_command', 'exec_command', 'container.exec', 'local_shell']);

function record(o: Record<string, unknown>): { type: string; payload: Record<string, unknown> } | undefined {
  if (typeof o.type === 'string' && ENVELOPES.has(o.type) && o.payload && typeof o.payload === 'object')
    return { type: o.type, payload: o.payload as Record<string, unknown> };
  if (typeof o.type === 'string' && ITEMS.has(o.type)) return { type: 'response_item', payload: o };
  if (o.type === undefined && typeof o.id === 'string' && ('instructions' in o || 'timestamp' in o))
    return { type: 'session_meta', payload: o };
  if (o.record_type === 'state') return { type: 'state', payload: o };
  return undefined;
}

function parseArgs(raw: unknown): Record<string, unknown> {
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) return raw as Record<string, unknown>;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : { arguments: raw };
  } catch {
    return { arguments: raw };
  }
}

/** The command line of a shell call: `bash -lc "npm test"` is `npm test`. */
function commandText(command: unknown): string {
  if (typeof command === 'string') return command;
  if (!Array.isArray(command)) return '';
  const parts = command.map(String);
  if (parts.length === 3 && /(?:^|\/)(?:ba|z|)sh$/.test(parts[0]!) && /^-l?c$/.test(parts[1]!)) return parts[2]!;
  return parts.join(' ');
}

function toCall(p: Record<string, unknown>): ToolCall | undefined {
  const id = typeof p.call_id === 'string' ? p.call_id : typeof p.id === 'string' ? p.id : undefined;
  const withId = (call: ToolCall): ToolCall => (id ? { ...call, id } : call);
  if (p.type === 'local_shell_call') {
    const action = (p.action ?? {}) as Record<string, unknown>;
    return withId({ name: 'Bash', input: { command: commandText(action.command) } });
  }
  if (p.type === 'web_search_call') return withId({ name: 'web_search', input: p.action ?? {} });
  if (typeof p.name !== 'string') return undefined;
  if (p.type === 'custom_tool_call')
    return withId({ name: p.name, input: { input: typeof p.input === 'string' ? p.input : '' } });
  const args = parseArgs(p.arguments);
  if (SHELL.has(p.name)) return withId({ name: 'Bash', input: { command: commandText(args.command ?? args.cmd) } });
  return withId({ name: p.name, input: args });
}

/** A call's output and whether it succeeded, from the shapes Codex has written over time. */
export function codexOutput(output: unknown): { text: string; ok: boolean | null } {
  if (Array.isArray(output))
    return {
      text: output
        .map((i) =>
          i && typeof i === 'object' && typeof (i as Record<string, unknown>).text === 'string'
            ? (i as Record<string, unknown>).text
            : '',
        )
        .join('\n'),
      ok: null,
    };
  if (output && typeof output === 'object') {
    const o = output as Record<string, unknown>;
    return {
      text: typeof o.content === 'string' ? o.content : JSON.stringify(o),
      ok: o.success === false ? false : o.success === true ? true : null,
    };
  }
  const text = typeof output === 'string' ? output : '';
  const json = jsonEnvelope(text);
  if (json) return json;
  const code = /^Exit code: (-?\d+)$/m.exec(text) ?? /^Process exited with code (-?\d+)$/m.exec(text);
  return { text, ok: code ? code[1] === '0' : null };
}

function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) =>
      c && typeof c === 'object' && typeof (c as Record<string, unknown>).text === 'string'
        ? (c as Record<string, unknown>).text
        : '',
    )
    .join('\n');
}

/**
 * Text the person typed, as opposed to the environment, instructions and AGENTS.md that Codex injects as user messages.
 */
function isTypedPrompt(text: string): boolean {
  const t = text.trim();
  return t.length > 0 && !/^<[a-z_]+>/.test(t) && !/^# AGENTS\.md instructions/.test(t);
}

function tokens(u: unknown): TokenCounts | undefined {
  if (!u || typeof u !== 'object') return undefined;
  const r = u as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  const cached = n(r.cached_input_tokens ?? r.cache_read_input_tokens);
  // input_tokens includes the cached part; output_tokens includes reasoning (reasoning_output_tokens is a breakdown)
  return {
    input: Math.max(0, n(r.input_tokens) - cached),
    output: n(r.output_tokens),
    cacheWrite: 0,
    cacheRead: Math.min(cached, n(r.input_tokens) || cached),
  };
}

function minus(a: TokenCounts, b: TokenCounts | undefined): TokenCounts {
  if (!b) return a;
  return {
    input: Math.max(0, a.input - b.input),
    output: Math.max(0, a.output - b.output),
    cacheWrite: 0,
    cacheRead: Math.max(0, a.cacheRead - b.cacheRead),
  };
}

/** The thread that spawned this one, from session_meta.source ({subagent: {thread_spawn: {parent_thread_id}}}). */
function parentThread(source: unknown, depth = 0): string | undefined {
  if (!source || typeof source !== 'object' || depth > 4) return undefined;
  const o = source as Record<string, unknown>;
  if (typeof o.parent_thread_id === 'string') return o.parent_thread_id;
  for (const v of Object.values(o)) {
    const found = parentThread(v, depth + 1);
    if (found) return found;
  }
  return undefined;
}

export function* codexRolloutEvents(
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink: TranscriptSink = {},
): Generator<ReplayItem> {
  let step = 0;
  let agent: Actor = { id: 'main' };
  let cwd: string | undefined;
  let model: string | undefined;
  const calls = new Map<string, { call: ToolCall; step: number }>();
  /** The first call since the last token count: the response that count belongs to made it. */
  let unbilledStep: number | undefined;
  let lastTotal: TokenCounts | undefined;
  let lastTotalText: string | undefined;
  for (const line of lines) {
    const o = parseJsonLine(line, stats);
    if (!o) continue;
    const r = record(o);
    if (!r) {
      stats.skipped++;
      continue;
    }
    const p = r.payload;
    const time = typeof o.timestamp === 'string' ? Date.parse(o.timestamp) : NaN;
    const base = { session, agent, ...(cwd ? { cwd } : {}), ...(Number.isFinite(time) ? { time } : {}) };
    if (r.type === 'session_meta') {
      if (typeof p.cwd === 'string') cwd = p.cwd;
      const parent = parentThread(p.source);
      if (parent) agent = { id: typeof p.id === 'string' ? p.id : session, type: 'subagent' };
      sink.info?.({
        ...(typeof p.id === 'string' ? { session: p.id } : {}),
        ...(cwd ? { cwd } : {}),
        ...(parent ? { parent } : {}),
      });
    } else if (r.type === 'turn_context') {
      if (typeof p.model === 'string') model = p.model;
      if (typeof p.cwd === 'string') cwd = p.cwd;
    } else if (r.type === 'event_msg' && p.type === 'token_count') {
      const info = p.info as Record<string, unknown> | null | undefined;
      if (!info || typeof info !== 'object') continue;
      // Codex can write the same count twice; the running total tells a repeat from a new response
      const totalText = info.total_token_usage ? JSON.stringify(info.total_token_usage) : undefined;
      if (totalText !== undefined && totalText === lastTotalText) continue;
      const total = tokens(info.total_token_usage);
      const used = tokens(info.last_token_usage) ?? (total ? minus(total, lastTotal) : undefined);
      lastTotalText = totalText;
      if (total) lastTotal = total;
      if (!used) continue;
      const m = typeof info.model === 'string' ? info.model : model;
      sink.usage?.({
        tokens: used,
        ...(m ? { model: m } : {}),
        ...(unbilledStep !== undefined ? { step: unbilledStep } : {}),
      });
      unbilledStep = undefined;
    } else if (r.type === 'response_item') {
      if (p.type === 'message') {
        const text = messageText(p.content);
        if (p.role === 'user' && isTypedPrompt(text))
          yield { event: { ...base, kind: 'prompt', prompt: text } as Event, step };
      } else if (
        p.type === 'function_call' ||
        p.type === 'custom_tool_call' ||
        p.type === 'local_shell_call' ||
        p.type === 'web_search_call'
      ) {
        const call = toCall(p);
        if (!call) {
          stats.skipped++;
          continue;
        }
        if (unbilledStep === undefined) unbilledStep = step;
        // calls issued before any of their outputs came back were
        // issued together: a call with none pending opens a new batch
        if (calls.size === 0) yield { event: { session, agent, kind: 'batch-end' }, step };
        if (/(?:^|\.)spawn_agent$/.test(call.name)) {
          const input = call.input as Record<string, unknown>;
          const childType =
            typeof input.agent_type === 'string'
              ? input.agent_type
              : typeof input.role === 'string'
                ? input.role
                : 'agent';
          yield { event: { ...base, kind: 'spawn', call, childType }, step };
        } else yield { event: { ...base, kind: 'pre-tool', call }, step };
        if (p.type === 'web_search_call') {
          // a hosted search has no output item; its status is all there is
          yield {
            event: describeEvent(
              { ...base, kind: 'post-tool', call, output: typeof p.status === 'string' ? p.status : '', ok: null },
              codexDialect,
            ),
            step,
          };
        } else if (call.id) calls.set(call.id, { call, step });
        step++;
      } else if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') {
        const id = typeof p.call_id === 'string' ? p.call_id : undefined;
        const pending = id ? calls.get(id) : undefined;
        if (!pending || !id) continue;
        calls.delete(id);
        const { text, ok } = codexOutput(p.output);
        yield {
          event: describeEvent({ ...base, kind: 'post-tool', call: pending.call, output: text, ok }, codexDialect),
          step: pending.step,
        };
      }
    }
  }
  if (step > 0) yield { event: { session, agent, kind: 'batch-end' }, step };
}
