import type { Actor, Decision } from '../../src/types.ts';
import type { LedgerLine } from './scratch.ts';

// Reading stallguard's session file the way a person auditing it would: each decision with the agent it
// was about and how many tool calls that agent had made when it was taken.

export interface LedgerDecision {
  action: Decision['action'];
  code?: string;
  mode: string;
  agent: Actor;
  /** Tool calls (post-tool observations) of the same agent up to and including the decided one. */
  afterCalls: number;
  decision: Decision;
}

export function ledgerDecisions(ledger: LedgerLine[]): LedgerDecision[] {
  const calls = new Map<string, number>();
  const observed = new Map<string, { agent: Actor; calls: number }>();
  const out: LedgerDecision[] = [];
  for (const line of ledger) {
    if (line.t === 'o') {
      const agent = line.o.agent;
      if (line.o.step.k === 'call') calls.set(agent.id, (calls.get(agent.id) ?? 0) + 1);
      observed.set(line.id, { agent, calls: calls.get(agent.id) ?? 0 });
    } else if (line.t === 'd') {
      const at = observed.get(line.id);
      if (!at) throw new Error(`decision ${line.id} has no observation before it in the ledger`);
      out.push({
        action: line.d.action,
        ...(line.d.code ? { code: line.d.code } : {}),
        mode: line.mode,
        agent: at.agent,
        afterCalls: at.calls,
        decision: line.d,
      });
    }
  }
  return out;
}

/** Tool calls observed in the ledger, per agent id. */
export function observedCalls(ledger: LedgerLine[]): Map<string, number> {
  const calls = new Map<string, number>();
  for (const line of ledger)
    if (line.t === 'o' && line.o.step.k === 'call') calls.set(line.o.agent.id, (calls.get(line.o.agent.id) ?? 0) + 1);
  return calls;
}
