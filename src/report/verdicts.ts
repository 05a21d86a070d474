import { refId } from '../core/call-ref.ts';
import type { Verdict } from '../store/verdicts.ts';
import type { ReportData } from './model.ts';

/** Marks each stall of the report that the person gave a verdict in `stallguard review` (skips are no verdict). */
export function markVerdicts(data: ReportData, verdicts: ReadonlyMap<string, Verdict>): ReportData {
  if (verdicts.size === 0) return data;
  const sessions = data.sessions.map((s) => ({
    ...s,
    stalls: s.stalls.map((st) => {
      const v = st.ref ? verdicts.get(refId(s.id, st.ref)) : undefined;
      return v && v.verdict !== 'skip' ? { ...st, verdict: v.verdict } : st;
    }),
  }));
  return { ...data, sessions };
}
