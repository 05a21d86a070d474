import { basename, dirname } from 'node:path';
import type { Config } from '../types.ts';
import { FORMAT_AGENT, historyFormat, historySessionId, keepFirstInfo, readTrajectory } from '../readers/read-file.ts';
import type { SessionInfo, TraceFormat } from '../readers/types.ts';
import type { SessionFiles } from './discover.ts';
import { measure } from './measure.ts';
import { type MeteredStall, type MeterInput, StallMeter } from './meter.ts';
import { addSpend, type Spend } from './spend.ts';

// One past session read, replayed and metered. The edge where files are opened: everything it calls is
// pure. A file that cannot be read or is in no known format is counted, never fatal.

export interface ScannedStall extends MeteredStall {
  /**
   * The subagent transcript the stall is in, when it is not the session's main file (steps count calls in that file).
   */
  file?: string;
}

export interface SessionScan {
  session: string;
  /** claude | codex | gemini | copilot | qwen, or trace for the generic format. */
  agent: string;
  file: string;
  format: TraceFormat;
  cwd?: string;
  project?: string;
  parent?: string;
  subagentFiles: number;
  calls: number;
  stalls: ScannedStall[];
  total: Spend;
  inside: { calls: number; spend: Spend };
  afterStop: { calls: number; spend: Spend };
  lines: number;
  skippedLines: number;
  /** Subagent files that could not be read or are in no known format. */
  unreadableFiles: number;
}

/** What reading a history file tells, beside what it feeds its meter. */
export interface FileFacts {
  format: TraceFormat;
  info: SessionInfo;
  lines: number;
  skipped: number;
}

/** A file of a session, read and metered. */
export interface MeteredFile extends FileFacts {
  meter: StallMeter;
}

/**
 * Reads and replays one history file, feeding its usage and observations to `meter` in order. Undefined
 * when the file cannot be read or is in no known format.
 */
export function replayFile(
  file: string,
  config: Config,
  meter: MeterInput,
  onBytes?: (n: number) => void,
): FileFacts | undefined {
  const format = historyFormat(file);
  if (!format) return undefined;
  const info: SessionInfo = {};
  const { items, stats } = readTrajectory(
    file,
    format,
    undefined,
    {
      usage: (u) => meter.usage(u),
      info: keepFirstInfo(info),
    },
    onBytes,
  );
  try {
    measure(items, config, meter);
  } catch (e) {
    // a file that vanished or became unreadable half-way: what was read so far still counts
    if (!(e as NodeJS.ErrnoException).code) throw e;
  }
  return { format, info, lines: stats.lines, skipped: stats.skipped };
}

/** A meter for one file of a scan; `seen` is shared by every file of the scan, metered in the scan's order. */
export function fileMeter(config: Config, seen: Map<string, number>): StallMeter {
  return new StallMeter(Math.max(64, config.window), seen);
}

/** Without a working directory, the folder the agent filed the session under (Gemini CLI: tmp/<project>/chats). */
function projectFolder(file: string): string {
  const dir = dirname(file);
  return basename(basename(dir) === 'chats' ? dirname(dir) : dir);
}

/** One session read here and now, its files one after another. */
export function scanSession(
  files: SessionFiles,
  config: Config,
  seen: Map<string, number>,
  onBytes?: (n: number) => void,
): SessionScan | undefined {
  return sessionOf(files, (file) => {
    const meter = fileMeter(config, seen);
    const facts = replayFile(file, config, meter, onBytes);
    return facts && { ...facts, meter };
  });
}

/**
 * A session from its files, each metered by `metered` in order (the main file first, then the subagents'
 * as listed): undefined, and no subagent file asked for, when the main file is unreadable.
 */
export function sessionOf(
  files: SessionFiles,
  metered: (file: string) => MeteredFile | undefined,
): SessionScan | undefined {
  const main = metered(files.main);
  if (!main) return undefined;
  const { session, flatSubagent } = historySessionId(files.main, main.format, main.info);
  const cwd = main.info.cwd;
  const result: SessionScan = {
    session,
    agent: FORMAT_AGENT[main.format],
    file: files.main,
    format: main.format,
    ...(cwd ? { cwd } : {}),
    project: cwd ? basename(cwd) : projectFolder(files.main),
    ...(main.info.parent
      ? { parent: main.info.parent }
      : flatSubagent && main.info.session
        ? { parent: main.info.session }
        : {}),
    subagentFiles: 0,
    calls: main.meter.calls,
    stalls: [...main.meter.stalls],
    total: main.meter.total,
    inside: main.meter.inside(),
    afterStop: main.meter.afterStop,
    lines: main.lines,
    skippedLines: main.skipped,
    unreadableFiles: 0,
  };
  for (const file of files.subagents) {
    const sub = metered(file);
    if (!sub) {
      result.unreadableFiles++;
      continue;
    }
    result.subagentFiles++;
    result.calls += sub.meter.calls;
    result.stalls.push(...sub.meter.stalls.map((s) => ({ ...s, file })));
    addSpend(result.total, sub.meter.total);
    const inside = sub.meter.inside();
    result.inside.calls += inside.calls;
    addSpend(result.inside.spend, inside.spend);
    result.afterStop = {
      calls: result.afterStop.calls + sub.meter.afterStop.calls,
      spend: addSpend(
        { ...result.afterStop.spend, tokens: { ...result.afterStop.spend.tokens } },
        sub.meter.afterStop.spend,
      ),
    };
    result.lines += sub.lines;
    result.skippedLines += sub.skipped;
  }
  return result;
}
