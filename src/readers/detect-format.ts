import type { TraceFormat } from './types.ts';

const CODEX_ENVELOPES = new Set(['session_meta', 'turn_context', 'response_item', 'event_msg']);

/** Which format a file is in, from its first meaningful lines. */
export function detectFormat(firstLines: string[]): TraceFormat | undefined {
  for (const line of firstLines) {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      // Gemini CLI's older chats are one pretty-printed JSON document, not JSON lines
      if (/^\s*"projectHash"\s*:/.test(line)) return 'gemini-chat';
      // `opencode export`: one pretty-printed session, whose id opens with ses_
      if (/^\s*"id"\s*:\s*"ses_[A-Za-z0-9]+",?\s*$/.test(line)) return 'opencode-export';
      continue;
    }
    if (!o || typeof o !== 'object') continue;
    if ('meta' in o || (typeof o.tool === 'string' && 'input' in o)) return 'trace';
    if (typeof o.type === 'string' && CODEX_ENVELOPES.has(o.type) && 'payload' in o) return 'codex-rollout';
    if (typeof o.sessionId === 'string' && 'projectHash' in o) return 'gemini-chat';
    if (o.type === 'session' && typeof o.version === 'number' && typeof o.id === 'string' && 'cwd' in o)
      return 'pi-session';
    // Copilot CLI's events.jsonl: {type: "session.start", data, id, parentId}, dotted types throughout
    if (
      typeof o.type === 'string' &&
      /^[a-z]+\.[a-z_]+$/.test(o.type) &&
      o.data &&
      typeof o.data === 'object' &&
      'parentId' in o
    )
      return 'copilot-events';
    // Qwen Code's chats look like Claude Code's transcript but carry Gemini's message parts
    if (
      typeof o.type === 'string' &&
      'uuid' in o &&
      Array.isArray((o.message as Record<string, unknown> | undefined)?.parts)
    )
      return 'qwen-chat';
    if (o.type === 'system' && (o.subtype === 'init' || o.subtype === 'hook_started' || o.subtype === 'hook_response'))
      return 'claude-stream-json';
    if ((o.type === 'assistant' || o.type === 'user') && 'parent_tool_use_id' in o) return 'claude-stream-json';
    if ((o.type === 'user' || o.type === 'assistant') && ('uuid' in o || 'sessionId' in o)) return 'claude-transcript';
    if (o.type === 'summary' || o.type === 'file-history-snapshot' || o.type === 'queue-operation')
      return 'claude-transcript';
    if (o.type === 'result' && 'session_id' in o) return 'claude-stream-json';
    // Codex before its envelope lines: a first line {id, timestamp, instructions}, then bare response items
    if (o.type === undefined && typeof o.id === 'string' && 'instructions' in o) return 'codex-rollout';
  }
  return undefined;
}
