import { statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Observation } from '../types.ts';
import { observation } from '../engine/step.ts';
import { FORMAT_AGENT, historyFormat, historySessionId, keepFirstInfo, readTrajectory } from '../readers/read-file.ts';
import type { SessionInfo } from '../readers/types.ts';
import { type SessionFiles, sessionsUnder } from '../scan/discover.ts';
import { sessionLog, sessionMtime } from '../store/segments.ts';
import { sessionFiles } from '../store/read-ledger.ts';
import type { Recorded, Run } from './run.ts';

// The edge where review and tune read sessions: the ledger's files (observations and the decisions made
// live) and the agents' own history (replayed later under whichever settings). Unreadable lines and files
// are skipped, never fatal.

/** One session of the ledger, with the decisions recorded live. */
export function ledgerRun(file: string): Run {
  const observations: Observation[] = [];
  const steps: number[] = [];
  const ids = new Map<string, number>();
  const decided = new Map<string, Recorded>();
  let session = basename(file).replace(/\.jsonl$/, '');
  let agentName = 'unknown';
  let cwd: string | undefined;
  let calls = 0;
  for (const line of sessionLog(file)) {
    if (!line) continue;
    if (line.t === 'm') {
      if (line.session) session = line.session;
      if (line.agent) agentName = line.agent;
      if (line.cwd) cwd = line.cwd;
    } else if (line.t === 'o' && line.o?.step && line.o.agent && typeof line.id === 'string') {
      ids.set(line.id, observations.length);
      observations.push(line.o);
      steps.push(calls);
      if (line.o.step.k === 'call') calls++;
    } else if (line.t === 'd' && line.d && typeof line.id === 'string')
      decided.set(line.id, { decision: line.d, mode: line.mode, ...(line.time ? { time: line.time } : {}) });
  }
  // a decision line follows its observation, sometimes after other hooks' lines
  const recorded = new Map<number, Recorded>();
  for (const [id, r] of decided) {
    const i = ids.get(id);
    if (i !== undefined) recorded.set(i, r);
  }
  let time: number | undefined;
  try {
    time = sessionMtime(file);
  } catch {
    /* read already; the time only orders */
  }
  return {
    session,
    source: 'ledger',
    file,
    agentName,
    ...(cwd ? { cwd } : {}),
    ...(time ? { time } : {}),
    observations,
    steps,
    recorded,
  };
}

export function* ledgerRuns(home: string): Generator<Run> {
  for (const file of sessionFiles(home)) {
    try {
      yield ledgerRun(file);
    } catch (e) {
      // removed while being read: the others still count
      if (!(e as NodeJS.ErrnoException).code) throw e;
    }
  }
}

/**
 * One history file as a run (its session id as the agent wrote
 * it), or undefined when it is in no format stallguard reads.
 */
export function historyRun(file: string, session?: string, onBytes?: (n: number) => void): Run | undefined {
  const format = historyFormat(file);
  if (!format) return undefined;
  const info: SessionInfo = {};
  const observations: Observation[] = [];
  const steps: number[] = [];
  let last: number | undefined;
  try {
    const { items } = readTrajectory(file, format, undefined, { info: keepFirstInfo(info) }, onBytes);
    for (const item of items) {
      observations.push(observation(item.event, {}));
      steps.push(item.step);
      if (item.event.time !== undefined) last = item.event.time;
    }
  } catch (e) {
    if (!(e as NodeJS.ErrnoException).code) throw e;
  }
  let time = last;
  if (time === undefined)
    try {
      time = statSync(file).mtimeMs;
    } catch {
      /* gone */
    }
  return {
    session: session ?? historySessionId(file, format, info).session,
    source: 'scan',
    file,
    agentName: FORMAT_AGENT[format],
    ...(info.cwd ? { cwd: info.cwd } : {}),
    ...(time ? { time } : {}),
    observations,
    steps,
  };
}

/** The files of one history session as runs: the main transcript, then each subagent's under the same session id. */
function historySession(files: SessionFiles, onBytes?: (n: number) => void): Run[] {
  const main = historyRun(files.main, undefined, onBytes);
  if (!main) return [];
  const runs = [main];
  for (const f of files.subagents) {
    const sub = historyRun(f, main.session, onBytes);
    if (sub) runs.push({ ...sub, ...(main.cwd && !sub.cwd ? { cwd: main.cwd } : {}) });
  }
  return runs;
}

export function* historyRuns(roots: string[], onBytes?: (n: number) => void, onSession?: () => void): Generator<Run> {
  for (const root of roots)
    for (const files of sessionsUnder(root)) {
      yield* historySession(files, onBytes);
      onSession?.();
    }
}
