import type { Action, CallStep, Decision, DecisionCode, Observation, SignalHit, Step } from '../types.ts';
import type { UsageRecord } from '../readers/types.ts';
import { loopForm, loopTools } from './loop-form.ts';
import { CallCounter, type CallRef } from '../core/call-ref.ts';
import { addSpend, noSpend, type Spend, spendOf } from './spend.ts';

// What a stall cost: the calls and the model tokens spent inside it. Pure: it is fed the observations of
// a session in order (from a replay of the agent's history, or from the ledger), the decisions made on
// them, and the usage of the model responses, and it measures.
//
// Inside a stall: a stall's stretch starts at the first call of the loop the engine detected (the
// decision's `span` calls of that agent, ending with the call that completed the loop) and goes on
// through every following call of the same agent that repeats one of the loop's calls (same call, same
// outcome); it ends at the agent's first call that is not one of them, at a new user prompt (a new task),
// or at the end of the session. Other agents' calls in between are not part of it. When the agent stalls
// again while a stretch is still open, the calls of the new loop move to the new stall, so stretches
// never overlap and their sums add up.
//
// Tokens inside a stall: a model response's tokens belong to the first tool call it made (a response
// that made no call belongs to no call); a stall holds the tokens of the responses that made its calls.
// Responses are counted once by their key (Claude: message id + request id), across all the files read
// with the same `seen` map, since a resumed or forked session copies earlier messages. Only the output
// count grows between the lines of one streamed response, so a later line with a larger output count
// adds the difference.
//
// After a stop: the calls an agent went on making, in the recorded session, after the point where
// stallguard would have stopped it, up to the next user prompt. With stallguard they would not have run.

export type After = 'changed' | 'repeated' | 'ended';

export interface MeteredStall {
  /** The call at which stallguard intervened. */
  step: number;
  action: Exclude<Action, 'allow'>;
  code?: DecisionCode;
  agent: string;
  signals: SignalHit[];
  /** Where the decision was recorded live: the mode it was made in. */
  mode?: string;
  /** First and last call of the stretch (0-based call indexes). */
  from: number;
  to: number;
  /** The agent's calls inside the stretch. */
  calls: number;
  /** Calls in the loop when it was detected: how many steps detection took. */
  span?: number;
  spend: Spend;
  /** The loop in short form: `Bash npm test` x5. */
  loop: string;
  tools: string[];
  /** What the agent did next: repeated the loop, changed approach, or made no further call in the task. */
  after?: After;
  /** The call it was flagged at, as a verdict names it (core/call-ref.ts). */
  ref?: CallRef;
}

/** Steps kept for tokens that arrive after their call (a response's usage can be written late). */
const KEEP_STEPS = 4096;

interface Stretch {
  stall: MeteredStall;
  keys: Set<string>;
}

interface Track {
  recent: { step: number; call: CallStep }[];
  open?: Stretch;
  waiting?: Stretch;
  /** Stopped in this task: later calls are ones stallguard would have spared. */
  stopped?: boolean;
}

const keyOf = (c: CallStep) => c.key + '\u0000' + c.out;

/**
 * What the meter reads of an observation, and no more: the step's kind and the agent; of a call its key,
 * outcome, tool and short form, of a call about to run its tool and short form, of a spawn its short form.
 * A file replayed in a thread hands this on (scan/tape.ts), not the whole step with its sketches; keep it
 * in step with observe() and what it calls.
 */
export function meterView(obs: Observation): Observation {
  const s = obs.step;
  const step: Step =
    s.k === 'call'
      ? { k: 'call', tool: s.tool, cls: s.cls, key: s.key, out: s.out, ok: s.ok, short: s.short }
      : s.k === 'pre'
        ? { k: 'pre', tool: s.tool, key: s.key, short: s.short }
        : s.k === 'spawn'
          ? { k: 'spawn', childType: s.childType, short: s.short }
          : s.k === 'verdict'
            ? s
            : { k: s.k };
  return { step, agent: obs.agent };
}

/** What a meter is fed, in order: the usage of model responses, the observations with their decisions, the end. */
export interface MeterInput {
  usage(record: UsageRecord): void;
  observe(obs: Observation, step: number, decision?: Decision, mode?: string): void;
  finish(): void;
}

export class StallMeter implements MeterInput {
  readonly stalls: MeteredStall[] = [];
  /** Every response's tokens, inside stalls or not. */
  readonly total: Spend = noSpend();
  calls = 0;
  /** Calls made after a stop, and their tokens. */
  readonly afterStop = { calls: 0, spend: noSpend() };
  private readonly spared = new Set<number>();
  private readonly tracks = new Map<string, Track>();
  private readonly stepSpend = new Map<number, Spend>();
  private readonly owner = new Map<number, MeteredStall>();
  private readonly refs = new CallCounter();
  private lastStep = 0;

  /**
   * @param keep calls remembered per agent: at least the engine's window, the longest loop it can report.
   * @param seen response key -> the output tokens counted for it, shared across the files of one scan.
   */
  constructor(
    private readonly keep = 64,
    private readonly seen?: Map<string, number>,
  ) {}

  usage(record: UsageRecord): void {
    if (record.key !== undefined && this.seen) {
      const counted = this.seen.get(record.key);
      if (counted !== undefined) {
        if (record.tokens.output <= counted) return;
        // the same response, its output count further along: only the difference is new
        this.seen.set(record.key, record.tokens.output);
        record = {
          ...record,
          tokens: { input: 0, output: record.tokens.output - counted, cacheWrite: 0, cacheRead: 0 },
          cacheWrite1h: 0,
        };
      } else this.seen.set(record.key, record.tokens.output);
    }
    const s = spendOf(record);
    addSpend(this.total, s);
    if (record.step === undefined) return;
    const at = this.stepSpend.get(record.step);
    if (at) addSpend(at, s);
    else this.stepSpend.set(record.step, { ...s, tokens: { ...s.tokens } });
    const stall = this.owner.get(record.step);
    if (stall) addSpend(stall.spend, s);
    if (this.spared.has(record.step)) addSpend(this.afterStop.spend, s);
  }

  /** One observation, with the decision made on it when stallguard intervened. */
  observe(obs: Observation, step: number, decision?: Decision, mode?: string): void {
    this.refs.next(obs);
    if (obs.step.k === 'prompt') for (const t of this.tracks.values()) this.endTask(t);
    else if (obs.step.k === 'call') this.call(obs.agent.id, step, obs.step);
    // a repeat denied right after a nudge belongs to the stall that flagged it, which is metered already
    if (decision && decision.action !== 'allow' && !decision.repeat && decision.code !== 'REPEAT_DENIED')
      this.decide(obs, step, decision, mode);
  }

  /** Closes what is still open: the session ended. */
  finish(): void {
    for (const t of this.tracks.values()) this.endTask(t);
  }

  /** The calls and spend inside all stalls (stretches do not overlap, so this is a plain sum). */
  inside(): { calls: number; spend: Spend } {
    const spend = noSpend();
    let calls = 0;
    for (const s of this.stalls) {
      calls += s.calls;
      addSpend(spend, s.spend);
    }
    return { calls, spend };
  }

  private track(agent: string): Track {
    let t = this.tracks.get(agent);
    if (!t) {
      t = { recent: [] };
      this.tracks.set(agent, t);
    }
    return t;
  }

  private endTask(t: Track): void {
    if (t.waiting) t.waiting.stall.after = 'ended';
    t.waiting = undefined;
    t.open = undefined;
    t.recent = [];
    t.stopped = false;
  }

  private call(agent: string, step: number, call: CallStep): void {
    this.calls++;
    const t = this.track(agent);
    const k = keyOf(call);
    if (t.waiting) {
      t.waiting.stall.after = t.waiting.keys.has(k) ? 'repeated' : 'changed';
      t.waiting = undefined;
    }
    if (t.open) {
      if (t.open.keys.has(k)) this.claim(t.open.stall, step);
      else t.open = undefined;
    }
    if (t.stopped) {
      this.afterStop.calls++;
      this.spared.add(step);
      const s = this.stepSpend.get(step);
      if (s) addSpend(this.afterStop.spend, s);
    }
    t.recent.push({ step, call });
    if (t.recent.length > this.keep) t.recent.shift();
    if (step > this.lastStep) this.lastStep = step;
    if (step % 1024 === 0) this.prune();
  }

  private claim(stall: MeteredStall, step: number): void {
    stall.calls++;
    stall.to = Math.max(stall.to, step);
    this.owner.set(step, stall);
    const s = this.stepSpend.get(step);
    if (s) addSpend(stall.spend, s);
  }

  private decide(obs: Observation, step: number, d: Decision, mode?: string): void {
    const agent = obs.agent.id;
    const stall: MeteredStall = {
      step,
      action: d.action as Exclude<Action, 'allow'>,
      ...(d.code ? { code: d.code } : {}),
      agent,
      signals: d.signals,
      ...(mode ? { mode } : {}),
      from: step,
      to: step,
      calls: 0,
      spend: noSpend(),
      loop: '',
      tools: [],
    };
    const ref = obs.step.k === 'call' || obs.step.k === 'verdict' ? this.refs.latest(agent) : undefined;
    if (ref) stall.ref = ref;
    this.stalls.push(stall);
    const t = this.track(agent);
    if (d.action === 'stop') t.stopped = true;
    if (!d.span || obs.step.k !== 'call') {
      // not a loop (a refused spawn, a protected file): nothing was spent inside it
      const short = obs.step.k === 'pre' || obs.step.k === 'spawn' || obs.step.k === 'call' ? obs.step.short : '';
      stall.loop = short ? '`' + short + '`' : '';
      stall.tools =
        obs.step.k === 'pre' || obs.step.k === 'call' ? [obs.step.tool] : short ? [short.split(' ')[0]!] : [];
      return;
    }
    const loop = t.recent.slice(-d.span);
    // calls an earlier stall of this agent claimed (its stretch ran on into this loop) move to this one
    const moved = new Set<MeteredStall>();
    for (const { step: s } of loop) {
      const earlier = this.owner.get(s);
      if (!earlier || earlier === stall) continue;
      earlier.calls--;
      const spent = this.stepSpend.get(s);
      if (spent) addSpend(earlier.spend, spent, -1);
      moved.add(earlier);
    }
    const before = t.recent.slice(0, t.recent.length - loop.length).reverse();
    for (const earlier of moved)
      earlier.to = before.find((r) => this.owner.get(r.step) === earlier)?.step ?? earlier.step;
    for (const { step: s } of loop) this.claim(stall, s);
    stall.span = loop.length;
    stall.from = loop[0]?.step ?? step;
    stall.loop = loopForm(loop.map((r) => r.call));
    stall.tools = loopTools(loop.map((r) => r.call));
    const keys = new Set(loop.map((r) => keyOf(r.call)));
    t.open = { stall, keys };
    t.waiting = { stall, keys };
  }

  private prune(): void {
    const oldest = this.lastStep - KEEP_STEPS;
    for (const map of [this.stepSpend, this.owner, this.spared] as (Map<number, unknown> | Set<number>)[])
      for (const k of map.keys()) {
        if (k >= oldest) break;
        map.delete(k);
      }
  }
}
