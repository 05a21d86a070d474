import type { SessionScan } from './scan-session.ts';
import { addSpend, noSpend, type Spend } from './spend.ts';

/** A scan's sums over its sessions. */
export interface ScanTotals {
  sessions: number;
  byAgent: Record<string, number>;
  withStalls: number;
  stalls: number;
  actions: Record<string, number>;
  calls: number;
  total: Spend;
  inside: { calls: number; spend: Spend };
  afterStop: { calls: number; spend: Spend };
  /** Stalls per tool (a stall whose loop uses two tools counts for both). */
  tools: Record<string, number>;
  skippedLines: number;
  /** Files that could not be read or are in no format stallguard reads. */
  unreadableFiles: number;
}

export function newTotals(): ScanTotals {
  return {
    sessions: 0,
    byAgent: {},
    withStalls: 0,
    stalls: 0,
    actions: {},
    calls: 0,
    total: noSpend(),
    inside: { calls: 0, spend: noSpend() },
    afterStop: { calls: 0, spend: noSpend() },
    tools: {},
    skippedLines: 0,
    unreadableFiles: 0,
  };
}

export function addSession(t: ScanTotals, s: SessionScan): ScanTotals {
  t.sessions++;
  t.byAgent[s.agent] = (t.byAgent[s.agent] ?? 0) + 1;
  if (s.stalls.length > 0) t.withStalls++;
  t.stalls += s.stalls.length;
  for (const st of s.stalls) {
    t.actions[st.action] = (t.actions[st.action] ?? 0) + 1;
    for (const tool of st.tools) t.tools[tool] = (t.tools[tool] ?? 0) + 1;
  }
  t.calls += s.calls;
  addSpend(t.total, s.total);
  t.inside.calls += s.inside.calls;
  addSpend(t.inside.spend, s.inside.spend);
  t.afterStop.calls += s.afterStop.calls;
  addSpend(t.afterStop.spend, s.afterStop.spend);
  t.skippedLines += s.skippedLines;
  t.unreadableFiles += s.unreadableFiles;
  return t;
}
