import { basename } from 'node:path';
import { fileLines } from './lines.ts';
import { detectFormat } from './detect-format.ts';
import { traceEvents } from './trace.ts';
import { claudeTranscriptEvents } from './claude-transcript.ts';
import { claudeStreamJsonEvents } from './claude-stream-json.ts';
import { codexRolloutEvents } from './codex-rollout.ts';
import { geminiChatEvents } from './gemini-chat.ts';
import { copilotEventsEvents } from './copilot-events.ts';
import { qwenChatEvents } from './qwen-chat.ts';
import { piSessionEvents } from './pi-session.ts';
import { opencodeExportEvents } from './opencode-export.ts';
import {
  newStats,
  type ReadStats,
  type ReplayItem,
  type SessionInfo,
  type TraceFormat,
  type TranscriptSink,
} from './types.ts';

export const FORMATS: readonly TraceFormat[] = [
  'trace',
  'claude-transcript',
  'claude-stream-json',
  'codex-rollout',
  'gemini-chat',
  'copilot-events',
  'qwen-chat',
  'pi-session',
  'opencode-export',
];

/** The agent whose history each format is (a generic trace names none). */
export const FORMAT_AGENT: Record<TraceFormat, string> = {
  trace: 'trace',
  'claude-transcript': 'claude',
  'claude-stream-json': 'claude',
  'codex-rollout': 'codex',
  'gemini-chat': 'gemini',
  'copilot-events': 'copilot',
  'qwen-chat': 'qwen',
  'pi-session': 'pi',
  'opencode-export': 'opencode',
};

export function sniffFormat(file: string): TraceFormat | undefined {
  const first: string[] = [];
  for (const line of fileLines(file, 64 * 1024)) {
    if (line.trim()) first.push(line);
    if (first.length >= 25) break;
  }
  return detectFormat(first);
}

/**
 * The format of a history file found on the machine, or undefined when it cannot be
 * read or is in no format stallguard reads (a search over folders goes on past it).
 */
export function historyFormat(file: string): TraceFormat | undefined {
  try {
    return sniffFormat(file);
  } catch {
    return undefined;
  }
}

/**
 * A sink's `info` that keeps into `into` the first value of each
 * fact a reader reports (later lines may repeat or contradict it).
 */
export function keepFirstInfo(into: SessionInfo): (info: SessionInfo) => void {
  return (info) => Object.assign(into, Object.fromEntries(Object.entries(info).filter(([k]) => !(k in into))));
}

/**
 * A history file's session id: the one its lines give, or its file name. A Claude subagent transcript kept
 * flat beside the sessions (agent-*.jsonl) names its parent in sessionId, so its own name is its id.
 */
export function historySessionId(
  file: string,
  format: TraceFormat,
  info: SessionInfo,
): { session: string; flatSubagent: boolean } {
  const name = basename(file).replace(/\.jsonl?$/, '');
  const flatSubagent = format === 'claude-transcript' && name.startsWith('agent-');
  return { session: flatSubagent ? name : (info.session ?? name), flatSubagent };
}

type Reader = (
  lines: Iterable<string>,
  session: string,
  stats: ReadStats,
  sink?: TranscriptSink,
) => Iterable<ReplayItem>;
const READERS: Record<TraceFormat, Reader> = {
  trace: traceEvents,
  'claude-transcript': claudeTranscriptEvents,
  'claude-stream-json': claudeStreamJsonEvents,
  'codex-rollout': codexRolloutEvents,
  'gemini-chat': geminiChatEvents,
  'copilot-events': copilotEventsEvents,
  'qwen-chat': qwenChatEvents,
  'pi-session': piSessionEvents,
  'opencode-export': opencodeExportEvents,
};

/** The events of a recorded trajectory file, streamed; model usage and session facts go to the sink. */
export function readTrajectory(
  file: string,
  format: TraceFormat,
  session = basename(file).replace(/\.jsonl?$/, ''),
  sink: TranscriptSink = {},
  onBytes?: (bytes: number) => void,
): { items: Iterable<ReplayItem>; stats: ReadStats } {
  const stats = newStats();
  return { items: READERS[format](fileLines(file, 1 << 20, onBytes), session, stats, sink), stats };
}
