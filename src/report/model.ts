import type { SignalCode } from '../types.ts';
import type { CallRef } from '../core/call-ref.ts';
import type { After } from '../scan/meter.ts';
import type { ScannedStall } from '../scan/scan-session.ts';
import { addSpend, noSpend, type Spend, tokenTotal } from '../scan/spend.ts';

// What a report shows, whatever it was read from: the ledger (what stallguard decided live, in shadow or
// enforce mode) or a scan of the agents' history (what it would have decided). Only a scan knows tokens.

export interface ReportStall {
  step: number;
  action: string;
  agent: string;
  signals: SignalCode[];
  loop: string;
  tools: string[];
  from: number;
  to: number;
  calls: number;
  /** Calls in the loop when it was detected. */
  span?: number;
  spend?: Spend;
  after?: After;
  /** Ledger: when the decision was made (ms since the epoch). */
  time?: number;
  /** Ledger: the mode the decision was made in. */
  mode?: string;
  /** Scan: the subagent transcript the stall is in, whose calls are counted apart from the session's main file. */
  file?: string;
  /** The call it was flagged at, as a verdict names it. */
  ref?: CallRef;
  /** The person's verdict on it (stallguard review), when they gave one. */
  verdict?: 'right' | 'wrong';
}

/** A metered stall as a report shows it. Its spend is left to the caller: only a scan knows tokens. */
export function reportStall(st: ScannedStall): ReportStall {
  return {
    step: st.step,
    action: st.action,
    agent: st.agent,
    signals: st.signals.map((x) => x.code),
    loop: st.loop,
    tools: st.tools,
    from: st.from,
    to: st.to,
    calls: st.calls,
    ...(st.span ? { span: st.span } : {}),
    ...(st.after ? { after: st.after } : {}),
    ...(st.mode ? { mode: st.mode } : {}),
    ...(st.file ? { file: st.file } : {}),
    ...(st.ref ? { ref: st.ref } : {}),
  };
}

export interface ReportSession {
  id: string;
  agent: string;
  project?: string;
  file?: string;
  calls: number;
  stalls: ReportStall[];
  /** Every response's tokens (scan only). */
  spend?: Spend;
  inside: { calls: number; spend?: Spend };
  afterStop: { calls: number; spend?: Spend };
  /** Milliseconds since the epoch, when known. */
  time?: number;
}

export interface ReportData {
  source: 'ledger' | 'scan';
  /** Where it was read from: the ledger folder or the scanned paths. */
  from: string[];
  sessions: ReportSession[];
  skippedLines: number;
}

export interface Row {
  key: string;
  stalls: number;
  sessions: Set<string>;
  calls: number;
  spend: Spend;
}

function bump(map: Map<string, Row>, key: string, session: string, stall: ReportStall): void {
  let row = map.get(key);
  if (!row) {
    row = { key, stalls: 0, sessions: new Set(), calls: 0, spend: noSpend() };
    map.set(key, row);
  }
  row.stalls++;
  row.sessions.add(session);
  row.calls += stall.calls;
  if (stall.spend) addSpend(row.spend, stall.spend);
}

export interface Summary {
  /** Whether the source had token counts: a scan of transcripts that record the model's usage. */
  tokens: boolean;
  sessions: number;
  withStalls: number;
  calls: number;
  stalls: number;
  spend?: Spend;
  inside: { calls: number; spend?: Spend };
  afterStop: { calls: number; spend?: Spend };
  byTool: Row[];
  bySignal: Row[];
  byProject: Row[];
  byLoop: Row[];
  /** action -> what the agent did next -> count; with the mode for ledger decisions. */
  interventions: { action: string; mode?: string; total: number; changed: number; repeated: number; ended: number }[];
}

const sorted = (m: Map<string, Row>) =>
  [...m.values()].sort((a, b) => b.stalls - a.stalls || b.calls - a.calls || (a.key < b.key ? -1 : 1));

/** The sums and groupings the tables and the page show. */
export function summarize(data: ReportData): Summary {
  const tokens = data.source === 'scan';
  const s: Summary = {
    tokens: false,
    sessions: data.sessions.length,
    withStalls: 0,
    calls: 0,
    stalls: 0,
    ...(tokens ? { spend: noSpend() } : {}),
    inside: { calls: 0, ...(tokens ? { spend: noSpend() } : {}) },
    afterStop: { calls: 0, ...(tokens ? { spend: noSpend() } : {}) },
    byTool: [],
    bySignal: [],
    byProject: [],
    byLoop: [],
    interventions: [],
  };
  const tool = new Map<string, Row>();
  const signal = new Map<string, Row>();
  const project = new Map<string, Row>();
  const loop = new Map<string, Row>();
  const after = new Map<string, Summary['interventions'][number]>();
  for (const session of data.sessions) {
    s.calls += session.calls;
    if (session.stalls.length > 0) s.withStalls++;
    if (s.spend && session.spend) addSpend(s.spend, session.spend);
    s.inside.calls += session.inside.calls;
    if (s.inside.spend && session.inside.spend) addSpend(s.inside.spend, session.inside.spend);
    s.afterStop.calls += session.afterStop.calls;
    if (s.afterStop.spend && session.afterStop.spend) addSpend(s.afterStop.spend, session.afterStop.spend);
    for (const st of session.stalls) {
      s.stalls++;
      for (const t of st.tools) bump(tool, t, session.id, st);
      // each stall counts once, under the signal that named it (the decision lists it first)
      if (st.signals[0]) bump(signal, st.signals[0], session.id, st);
      bump(project, session.project ?? '(unknown)', session.id, st);
      if (st.loop) bump(loop, st.loop, session.id, st);
      const key = `${st.action}\u0000${st.mode ?? ''}`;
      let a = after.get(key);
      if (!a) {
        a = { action: st.action, ...(st.mode ? { mode: st.mode } : {}), total: 0, changed: 0, repeated: 0, ended: 0 };
        after.set(key, a);
      }
      a.total++;
      if (st.after) a[st.after]++;
    }
  }
  s.tokens = !!s.spend && tokenTotal(s.spend.tokens) > 0;
  s.byTool = sorted(tool);
  s.bySignal = sorted(signal);
  s.byProject = sorted(project);
  s.byLoop = sorted(loop);
  s.interventions = [...after.values()].sort((a, b) => b.total - a.total);
  return s;
}
