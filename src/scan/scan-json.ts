import type { TokenCounts } from '../readers/types.ts';
import type { ScannedStall, SessionScan } from './scan-session.ts';
import { knownUsd, type Spend } from './spend.ts';

// The line `scan --json` prints per session: DESIGN section 1's {session, agent, file, calls,
// stalls: [{step, action, signals}]}, with what the stalls cost beside it. `cost` is USD at the shipped
// prices, null when none of the tokens could be priced; `unpricedTokens` says how many were left out.

interface CostJson {
  tokens: TokenCounts;
  cost: number | null;
  unpricedTokens?: number;
}

function cost(s: Spend): CostJson {
  return { tokens: s.tokens, cost: knownUsd(s), ...(s.unpriced > 0 ? { unpricedTokens: s.unpriced } : {}) };
}

function stallJson(s: ScannedStall) {
  return {
    step: s.step,
    action: s.action,
    signals: s.signals,
    ...(s.code ? { code: s.code } : {}),
    agent: s.agent,
    ...(s.file ? { file: s.file } : {}),
    loop: s.loop,
    tools: s.tools,
    from: s.from,
    to: s.to,
    calls: s.calls,
    ...(s.span ? { span: s.span } : {}),
    ...cost(s.spend),
    ...(s.after ? { after: s.after } : {}),
  };
}

export function sessionJson(s: SessionScan) {
  return {
    session: s.session,
    agent: s.agent,
    file: s.file,
    calls: s.calls,
    stalls: s.stalls.map(stallJson),
    format: s.format,
    ...(s.project ? { project: s.project } : {}),
    ...(s.cwd ? { cwd: s.cwd } : {}),
    ...(s.parent ? { parent: s.parent } : {}),
    ...(s.subagentFiles ? { subagentFiles: s.subagentFiles } : {}),
    ...cost(s.total),
    inside: { calls: s.inside.calls, ...cost(s.inside.spend) },
    afterStop: { calls: s.afterStop.calls, ...cost(s.afterStop.spend) },
    lines: s.lines,
    skippedLines: s.skippedLines,
  };
}
