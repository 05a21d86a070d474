import type { Action, Config, Decision, DecisionCode, Observation, SignalHit } from '../types.ts';
import { reduce } from '../engine/engine.ts';
import { initialState, type State } from '../engine/state.ts';
import { observation, type StepContext } from '../engine/step.ts';
import type { ReplayItem } from '../readers/types.ts';

// Replay runs the detector over a recorded trajectory as if live, with enforce semantics and the hook's
// own code path (observation -> reduce). Once the main agent is stopped its turn would have ended there:
// the engine's sticky stop keeps out the rest of that task's calls (a stopped subagent's too), and the
// person's next prompt starts a new task, which the replay goes on with.

export interface Intervention {
  step: number;
  action: Exclude<Action, 'allow'>;
  code?: DecisionCode;
  agent: string;
  signals: SignalHit[];
  message: string;
}

export interface ReplaySummary {
  calls: number;
  nudges: number;
  denies: number;
  stops: number;
  /** The call at which the main agent was first stopped, if it was. */
  stoppedAt?: number;
}

/** One recorded event replayed: what the engine observed, what it decided, and the intervention if it made one. */
export interface Replayed {
  obs: Observation;
  decision: Decision;
  intervention?: Intervention;
}

/** The replay one event at a time, for callers that look at more than the interventions (scan). */
export class Replay {
  private state: State = initialState();
  readonly interventions: Intervention[] = [];
  readonly summary: ReplaySummary = { calls: 0, nudges: 0, denies: 0, stops: 0 };

  constructor(
    private readonly config: Config,
    private readonly ctx: StepContext = {},
  ) {}

  push({ event, step }: ReplayItem): Replayed {
    if (event.kind === 'post-tool') this.summary.calls++;
    const obs = observation(event, this.ctx);
    const r = reduce(this.state, obs, this.config);
    this.state = r.state;
    const d = r.decision;
    if (d.action === 'allow' || d.repeat) return { obs, decision: d };
    const message = d.action === 'stop' ? (d.stopReason ?? '') : (d.message ?? '');
    const intervention: Intervention = {
      step,
      action: d.action,
      ...(d.code ? { code: d.code } : {}),
      agent: event.agent.id,
      signals: d.signals,
      message,
    };
    this.interventions.push(intervention);
    if (d.action === 'nudge') this.summary.nudges++;
    else if (d.action === 'deny') this.summary.denies++;
    else {
      this.summary.stops++;
      if (event.agent.id === 'main' && this.summary.stoppedAt === undefined) this.summary.stoppedAt = step;
    }
    return { obs, decision: d, intervention };
  }
}

export function replayItems(
  items: Iterable<ReplayItem>,
  config: Config,
  ctx: StepContext = {},
): { interventions: Intervention[]; summary: ReplaySummary } {
  const replay = new Replay(config, ctx);
  for (const item of items) replay.push(item);
  return { interventions: replay.interventions, summary: replay.summary };
}
