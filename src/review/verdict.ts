import type { SignalCode } from '../types.ts';
import { redact } from '../core/redact.ts';
import { type CallRef, refId } from './refs.ts';
import type { Run, RunStall } from './run.ts';

// A person's verdict on one intervention: was stallguard right to step in there? Kept in
// STALLGUARD_HOME/verdicts.jsonl with what tune needs to find the stall again and weigh it, and what a
// person needs to recognise it: short forms (redacted, as in the ledger), signal values, counts. Never an
// output, a file's content or a message's text.

export type Answer = 'right' | 'wrong' | 'skip';
export const ANSWERS: readonly Answer[] = ['right', 'wrong', 'skip'];

export interface Verdict extends CallRef {
  v: 1;
  /** refId(session, ref): a later line with the same id replaces an earlier one. */
  id: string;
  session: string;
  verdict: Answer;
  /** When the verdict was given. */
  time: number;
  source: Run['source'];
  /** The ledger's session file, or the history file the stall is in. */
  file: string;
  agentName: string;
  cwd?: string;
  action: string;
  mode?: string;
  /** The signals that saw the loop, with their values when the intervention was made (the judge's score left out). */
  signals: { code: SignalCode; value: number }[];
  loop: string;
  /** The distinct calls of the loop, in short form: a pattern marked wrong is not a learning. */
  calls: string[];
  span: number;
  more: number;
}

export function verdictOf(run: Run, stall: RunStall, answer: Answer, time: number): Verdict {
  return {
    v: 1,
    id: refId(run.session, stall.ref),
    session: run.session,
    agent: stall.ref.agent,
    call: redact(stall.ref.call),
    nth: stall.ref.nth,
    verdict: answer,
    time,
    source: run.source,
    file: run.file,
    agentName: run.agentName,
    ...(run.cwd ? { cwd: redact(run.cwd) } : {}),
    action: stall.action,
    ...(stall.mode ? { mode: stall.mode } : {}),
    signals: stall.decision.signals.filter((s) => s.code !== 'JUDGE').map((s) => ({ code: s.code, value: s.value })),
    loop: redact(stall.loop),
    calls: stall.calls.map(redact),
    span: stall.span,
    more: stall.more,
  };
}

/** Whether a line read back is a verdict this version understands. */
export function isVerdict(x: unknown): x is Verdict {
  const v = x as Verdict;
  return (
    !!v &&
    typeof v === 'object' &&
    v.v === 1 &&
    typeof v.id === 'string' &&
    typeof v.session === 'string' &&
    typeof v.agent === 'string' &&
    typeof v.call === 'string' &&
    Number.isInteger(v.nth) &&
    ANSWERS.includes(v.verdict) &&
    typeof v.file === 'string' &&
    Array.isArray(v.signals) &&
    Number.isInteger(v.span) &&
    Number.isInteger(v.more)
  );
}

/** The verdicts that say something (right or wrong): skips are only "not now". */
export function given(verdicts: Iterable<Verdict>): Verdict[] {
  return [...verdicts].filter((v) => v.verdict !== 'skip');
}
