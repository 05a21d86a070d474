import type { Observation } from '../types.ts';
import { digest } from './digest.ts';

// Where a stall happened, said so that a replay of the same session finds it again: from the ledger, from
// the agent's own transcript of the session (scan), and under other settings. Call numbers do not carry
// over (the ledger holds every agent's calls in one file, a transcript each subagent's in its own, and a
// hook installed mid-session missed the first ones), nor do digests of the outcome (the hook and the
// transcript word a result differently). What does: the agent, the call as a person reads it (its short
// form, redacted), and which time that call was made.

export interface CallRef {
  /** `main`, or the subagent's id. */
  agent: string;
  /** The call's short form: `Bash npm test`. */
  call: string;
  /** Which time the agent made this call in the session, from 1. */
  nth: number;
}

/** The id of a stall's verdict: the session and the call the stall was flagged at. */
export function refId(session: string, ref: CallRef): string {
  return digest(`${session}\u0000${ref.agent}\u0000${ref.call}\u0000${ref.nth}`).slice(0, 12);
}

/** Counts each agent's calls as they come, to give each one its CallRef. */
export class CallCounter {
  private readonly counts = new Map<string, number>();
  private readonly last = new Map<string, CallRef>();

  /** The ref of a call observation (undefined for any other). */
  next(obs: Observation): CallRef | undefined {
    if (obs.step.k !== 'call') return undefined;
    const key = `${obs.agent.id}\u0000${obs.step.short}`;
    const nth = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, nth);
    const ref = { agent: obs.agent.id, call: obs.step.short, nth };
    this.last.set(obs.agent.id, ref);
    return ref;
  }

  /** The agent's latest call, for a decision made on something else (the optional LLM judge's verdict). */
  latest(agent: string): CallRef | undefined {
    return this.last.get(agent);
  }
}
