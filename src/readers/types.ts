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

export type TraceFormat = 'trace' | 'claude-transcript' | 'claude-stream-json';

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
