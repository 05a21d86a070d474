import type { TokenCounts } from '../readers/types.ts';
import type { LedgerSession } from '../report/from-ledger.ts';
import type { ReportStall } from '../report/model.ts';
import type { ScannedStall } from '../scan/scan-session.ts';
import { knownUsd } from '../scan/spend.ts';

// Ledger detections in the shape a team's monitoring wants them: one record per intervention, with the
// tool and signal it is about, and, where the agent's own transcript of the session was found on this
// machine, the tokens spent inside the stall (the ledger itself never holds token counts).

export interface FleetStall {
  session: string;
  /** claude | codex | gemini ... */
  agent: string;
  project?: string;
  /** main, or the subagent's id. */
  actor: string;
  step: number;
  action: string;
  mode?: string;
  /** The first signal and the first tool of the loop: one value each, for metric attributes. */
  signal: string;
  tool: string;
  signals: string[];
  tools: string[];
  loop: string;
  span?: number;
  calls: number;
  tokens?: TokenCounts;
  cost?: number | null;
  time?: number;
}

export interface Fleet {
  sessions: number;
  calls: number;
  stalls: FleetStall[];
}

/**
 * Tokens for a ledger stall from the transcript's replay of the same session: the engine is deterministic,
 * so the transcript's stalls are the ledger's, in the same order per agent; a stall matches when its
 * action and loop are the same.
 */
export function withTokens(
  stalls: ReportStall[],
  transcript: ScannedStall[] | undefined,
): (ReportStall & { tokens?: TokenCounts; cost?: number | null })[] {
  if (!transcript) return stalls;
  let from = 0;
  return stalls.map((st) => {
    const i = transcript.findIndex(
      (t, k) => k >= from && t.agent === st.agent && t.action === st.action && t.loop === st.loop,
    );
    if (i === -1) return st;
    from = i + 1;
    const t = transcript[i]!;
    return { ...st, tokens: t.spend.tokens, cost: knownUsd(t.spend) };
  });
}

export function fleet(
  ledger: LedgerSession[],
  transcripts: (session: string, agent: string) => ScannedStall[] | undefined = () => undefined,
): Fleet {
  const out: Fleet = { sessions: ledger.length, calls: 0, stalls: [] };
  for (const { session } of ledger) {
    out.calls += session.calls;
    const stalls = session.stalls.length > 0 ? withTokens(session.stalls, transcripts(session.id, session.agent)) : [];
    for (const st of stalls)
      out.stalls.push({
        session: session.id,
        agent: session.agent,
        ...(session.project ? { project: session.project } : {}),
        actor: st.agent,
        step: st.step,
        action: st.action,
        ...(st.mode ? { mode: st.mode } : {}),
        signal: st.signals[0] ?? 'none',
        tool: st.tools[0] ?? 'none',
        signals: st.signals,
        tools: st.tools,
        loop: st.loop,
        ...(st.span ? { span: st.span } : {}),
        calls: st.calls,
        ...('tokens' in st && st.tokens ? { tokens: st.tokens, cost: st.cost ?? null } : {}),
        ...(st.time ? { time: st.time } : {}),
      });
  }
  return out;
}

/** Bucket bounds for "steps to detection" (calls in the loop when it was detected). */
export const STEP_BUCKETS = [2, 3, 4, 5, 6, 8, 10, 15, 20, 25, 50];
