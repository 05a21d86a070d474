import type { TraceFormat } from './types.ts';

/** Which format a file is in, from its first meaningful lines. */
export function detectFormat(firstLines: string[]): TraceFormat | undefined {
  for (const line of firstLines) {
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (!o || typeof o !== 'object') continue;
    if ('meta' in o || (typeof o.tool === 'string' && 'input' in o)) return 'trace';
    if (o.type === 'system' && (o.subtype === 'init' || o.subtype === 'hook_started' || o.subtype === 'hook_response')) return 'claude-stream-json';
    if ((o.type === 'assistant' || o.type === 'user') && 'parent_tool_use_id' in o) return 'claude-stream-json';
    if ((o.type === 'user' || o.type === 'assistant') && ('uuid' in o || 'sessionId' in o)) return 'claude-transcript';
    if (o.type === 'summary' || o.type === 'file-history-snapshot' || o.type === 'queue-operation') return 'claude-transcript';
    if (o.type === 'result' && 'session_id' in o) return 'claude-stream-json';
  }
  return undefined;
}
