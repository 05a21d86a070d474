import { basename } from 'node:path';
import { fileLines } from './lines.ts';
import { detectFormat } from './detect-format.ts';
import { traceEvents } from './trace.ts';
import { claudeTranscriptEvents } from './claude-transcript.ts';
import { claudeStreamJsonEvents } from './claude-stream-json.ts';
import { newStats, type ReadStats, type ReplayItem, type TraceFormat } from './types.ts';

export const FORMATS: readonly TraceFormat[] = ['trace', 'claude-transcript', 'claude-stream-json'];

export function sniffFormat(file: string): TraceFormat | undefined {
  const first: string[] = [];
  for (const line of fileLines(file, 64 * 1024)) {
    if (line.trim()) first.push(line);
    if (first.length >= 25) break;
  }
  return detectFormat(first);
}

/** The events of a recorded trajectory file, streamed. */
export function readTrajectory(file: string, format: TraceFormat, session = basename(file).replace(/\.jsonl?$/, '')): { items: Iterable<ReplayItem>; stats: ReadStats } {
  const stats = newStats();
  const lines = fileLines(file);
  const items =
    format === 'trace' ? traceEvents(lines, session, stats) : format === 'claude-transcript' ? claudeTranscriptEvents(lines, session, stats) : claudeStreamJsonEvents(lines, session, stats);
  return { items, stats };
}
