import { basename } from 'node:path';
import type { CallStep, SignalHit } from '../types.ts';
import { type Recorded, type Run, type RunIndex, type RunStall, indexRun, stallsOf } from './run.ts';
import type { Verdict } from '../store/verdicts.ts';
import { verdictOf } from './verdict.ts';

// What `stallguard review` puts before a person: one intervention, the agent's calls around it in short
// form (the loop marked, the repeated calls pointed back to the first of them, what the agent did after),
// and what the agent was told. Pure and plain data, so `--json` prints the same thing the screen shows.

export interface ContextCall {
  step: number;
  short: string;
  /** ok, failed, empty, rejected, malformed, refused, not run, or '' where the agent did not say. */
  outcome: string;
  /** before the loop, in it, or after the intervention. */
  part: 'before' | 'loop' | 'after';
  /** The call this one repeats (same call, same outcome), when one of those shown came first. */
  sameAs?: number;
  flagged?: boolean;
}

export interface ReviewItem {
  id: string;
  session: string;
  source: Run['source'];
  file: string;
  agentName: string;
  project?: string;
  agent: string;
  time?: number;
  action: string;
  mode?: string;
  signals: SignalHit[];
  /** What the agent got (or would have got): the nudge, or the deny that carries a stop. */
  message?: string;
  /** What the person was told at a stop. */
  stopReason?: string;
  loop: string;
  calls: ContextCall[];
  /** What follows the calls shown: more calls of the task, a new prompt, or the end of the session. */
  then: { calls: number; next: 'prompt' | 'end' | 'calls' };
  /** The verdict to record, with its answer and time filled in when given. */
  record: Verdict;
}

const BEFORE = 2;
const AFTER = 4;
const LOOP_HEAD = 2;
const LOOP_TAIL = 6;

function outcome(c: CallStep): string {
  if (c.skipped) return 'not run';
  if (c.refused) return 'refused';
  if (c.rejected) return 'rejected';
  if (c.malformed) return 'malformed';
  if (c.ok === false) return 'failed';
  if (c.empty) return 'empty';
  return c.ok === null ? '' : 'ok';
}

function context(index: RunIndex, stall: RunStall): Pick<ReviewItem, 'calls' | 'then'> {
  const list = index.calls.get(stall.agent)!;
  const task = list[stall.ordinal]!.task;
  const first = stall.ordinal - stall.span + 1;
  const inTask = (o: number) => o >= 0 && o < list.length && list[o]!.task === task;
  const shown: { o: number; part: ContextCall['part'] }[] = [];
  for (let o = first - BEFORE; o < first; o++) if (inTask(o)) shown.push({ o, part: 'before' });
  for (let o = first; o <= stall.ordinal; o++)
    if (stall.span <= LOOP_HEAD + LOOP_TAIL + 1 || o < first + LOOP_HEAD || o > stall.ordinal - LOOP_TAIL)
      shown.push({ o, part: 'loop' });
  let o = stall.ordinal + 1;
  for (; o <= stall.ordinal + AFTER && inTask(o); o++) shown.push({ o, part: 'after' });
  let rest = 0;
  while (inTask(o + rest)) rest++;
  const next = rest > 0 ? 'calls' : o < list.length ? 'prompt' : 'end';
  const firstOf = new Map<string, number>();
  const calls = shown.map(({ o: at, part }) => {
    const c = list[at]!;
    const same = `${c.call.key}\u0000${c.call.out}`;
    const earlier = firstOf.get(same);
    if (earlier === undefined) firstOf.set(same, c.step);
    return {
      step: c.step,
      short: c.call.short,
      outcome: outcome(c.call),
      part,
      ...(earlier !== undefined ? { sameAs: earlier } : {}),
      ...(at === stall.ordinal ? { flagged: true } : {}),
    };
  });
  // biome-ignore lint/suspicious/noThenProperty: what the agent did next, a field of review --json's items
  return { calls, then: { calls: rest, next } };
}

/** The stalls of one run among `decisions`, as review shows them. */
export function reviewItems(run: Run, decisions: Map<number, Recorded>): ReviewItem[] {
  const index = indexRun(run);
  return stallsOf(run, decisions, index).map((stall) => {
    const record = verdictOf(run, stall, 'skip', 0);
    const d = stall.decision;
    return {
      id: record.id,
      session: run.session,
      source: run.source,
      file: run.file,
      agentName: run.agentName,
      ...(run.cwd ? { project: basename(run.cwd) } : {}),
      agent: stall.agent,
      ...((stall.time ?? run.observations[stall.index]?.time ?? run.time)
        ? { time: stall.time ?? run.observations[stall.index]?.time ?? run.time }
        : {}),
      action: stall.action,
      ...(stall.mode ? { mode: stall.mode } : {}),
      signals: d.signals,
      ...(d.message ? { message: d.message } : {}),
      ...(d.stopReason ? { stopReason: d.stopReason } : {}),
      loop: stall.loop,
      ...context(index, stall),
      record,
    };
  });
}
