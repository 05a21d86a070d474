import type { Event } from '../types.ts';

/** An event of a recorded trajectory, with the 0-based index of the tool call it belongs to. */
export interface ReplayItem {
  event: Event;
  step: number;
}

/** Lines a reader could not use: counted and skipped, never fatal. */
export interface ReadStats {
  lines: number;
  skipped: number;
}

export type TraceFormat =
  | 'trace'
  | 'claude-transcript'
  | 'claude-stream-json'
  | 'codex-rollout'
  | 'gemini-chat'
  | 'copilot-events'
  | 'qwen-chat'
  | 'pi-session'
  | 'opencode-export';

/** Tokens of model responses, split the way providers price them. */
export interface TokenCounts {
  /** Input tokens not read from a cache. */
  input: number;
  /** Output tokens, reasoning included. */
  output: number;
  /** Input tokens written to a cache. */
  cacheWrite: number;
  /** Input tokens read from a cache. */
  cacheRead: number;
}

/** What one model response cost in tokens, as the agent recorded it. */
export interface UsageRecord {
  /**
   * The same response seen again (a split or copied message) carries the same key: Claude's message id + request id.
   */
  key?: string;
  model?: string;
  tokens: TokenCounts;
  /** The part of `tokens.cacheWrite` written to a one-hour cache, where the agent says (priced higher). */
  cacheWrite1h?: number;
  /** The 0-based index of the first tool call this response made, when it made one. */
  step?: number;
}

/** What a reader learns about the session from inside the file. */
export interface SessionInfo {
  session?: string;
  cwd?: string;
  /** The session that started this one, for a subagent's own transcript. */
  parent?: string;
}

/** Side channels of a reader, beside the events it yields: the model usage and what it learns of the session. */
export interface TranscriptSink {
  usage?(record: UsageRecord): void;
  info?(info: SessionInfo): void;
}

export function newStats(): ReadStats {
  return { lines: 0, skipped: 0 };
}

export function parseJsonLine(line: string, stats: ReadStats): Record<string, unknown> | undefined {
  stats.lines++;
  if (line.trim().length === 0) {
    stats.lines--;
    return undefined;
  }
  try {
    const v = JSON.parse(line) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* counted below */
  }
  stats.skipped++;
  return undefined;
}
