import type { SessionScan } from '../scan/scan-session.ts';
import type { ReportSession } from './model.ts';

export function fromScan(s: SessionScan): ReportSession {
  return {
    id: s.session,
    agent: s.agent,
    ...(s.project ? { project: s.project } : {}),
    file: s.file,
    calls: s.calls,
    stalls: s.stalls.map((st) => ({
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
      spend: st.spend,
      ...(st.after ? { after: st.after } : {}),
      ...(st.file ? { file: st.file } : {}),
    })),
    spend: s.total,
    inside: s.inside,
    afterStop: s.afterStop,
  };
}
