import { basename } from 'node:path';
import type { CallStep, Decision } from '../types.ts';
import { sessionLog, sessionMtime } from '../store/segments.ts';
import { StallMeter } from '../scan/meter.ts';
import { type ReportSession, reportStall } from './model.ts';

// The ledger read back for a report: each session's observations in file order, with the decisions
// recorded live (a decision line follows its observation, sometimes after other hooks' lines, so a first
// pass collects the decisions by observation id). The same meter as scan measures the stalls, so a
// report reads the same from either source.

/** One call key's repeats within a session, for the learnings. */
export interface Repeat {
  short: string;
  tool: string;
  cls: CallStep['cls'];
  times: number;
  failed: number;
  /** Failure signature digest -> times seen. */
  failures: Map<string, number>;
}

export interface LedgerSession {
  session: ReportSession;
  /** Calls made three times or more in the session, by call key. */
  repeats: Map<string, Repeat>;
  unreadableLines: number;
}

export function readLedgerSession(file: string): LedgerSession {
  const decisions = new Map<string, { d: Decision; mode: string; time?: number }>();
  let id = basename(file).replace(/\.jsonl$/, '');
  let agent = 'unknown';
  let cwd: string | undefined;
  let time: number | undefined;
  let unreadableLines = 0;
  for (const line of sessionLog(file)) {
    if (!line) unreadableLines++;
    else if (line.t === 'd' && line.d && typeof line.id === 'string')
      decisions.set(line.id, { d: line.d, mode: line.mode, ...(line.time ? { time: line.time } : {}) });
    else if (line.t === 'm') {
      if (line.session) id = line.session;
      if (line.agent) agent = line.agent;
      if (line.cwd) cwd = line.cwd;
      if (line.time) time = line.time;
    }
  }
  const meter = new StallMeter();
  // the meter makes one stall per decision it is given, in order: their times, in the same order
  const times: (number | undefined)[] = [];
  const counts = new Map<string, Repeat>();
  let step = 0;
  for (const line of sessionLog(file)) {
    if (line?.t !== 'o' || !line.o?.step || !line.o.agent) continue;
    const decided = decisions.get(line.id);
    meter.observe(line.o, step, decided?.d, decided?.mode);
    if (decided && decided.d.action !== 'allow' && !decided.d.repeat) times.push(decided.time);
    const s = line.o.step;
    if (s.k !== 'call') continue;
    step++;
    let r = counts.get(s.key);
    if (!r) {
      r = { short: s.short, tool: s.tool, cls: s.cls, times: 0, failed: 0, failures: new Map() };
      counts.set(s.key, r);
    }
    r.times++;
    if (s.ok === false) {
      r.failed++;
      if (s.fail) r.failures.set(s.fail, (r.failures.get(s.fail) ?? 0) + 1);
    }
  }
  meter.finish();
  const repeats = new Map([...counts].filter(([, r]) => r.times >= 3));
  let lastActivity: number | undefined;
  try {
    lastActivity = sessionMtime(file);
  } catch {
    /* read already; the time is only for ordering */
  }
  const session: ReportSession = {
    id,
    agent,
    ...(cwd ? { project: basename(cwd) } : {}),
    file,
    calls: meter.calls,
    stalls: meter.stalls.map((st, i) => ({ ...reportStall(st), ...(times[i] ? { time: times[i] } : {}) })),
    inside: { calls: meter.inside().calls },
    afterStop: { calls: meter.afterStop.calls },
    ...((lastActivity ?? time) ? { time: lastActivity ?? time } : {}),
  };
  return { session, repeats, unreadableLines };
}
