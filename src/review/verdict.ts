import { redact } from '../core/redact.ts';
import { refId } from '../core/call-ref.ts';
import type { Answer, Verdict } from '../store/verdicts.ts';
import type { Run, RunStall } from './run.ts';

// The verdict on a stall review shows, as verdicts.jsonl keeps it (store/verdicts.ts: the record and its file).

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
