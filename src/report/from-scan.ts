import type { SessionScan } from '../scan/scan-session.ts';
import { type ReportSession, reportStall } from './model.ts';

export function fromScan(s: SessionScan): ReportSession {
  return {
    id: s.session,
    agent: s.agent,
    ...(s.project ? { project: s.project } : {}),
    file: s.file,
    calls: s.calls,
    stalls: s.stalls.map((st) => ({ ...reportStall(st), spend: st.spend })),
    spend: s.total,
    inside: s.inside,
    afterStop: s.afterStop,
  };
}
