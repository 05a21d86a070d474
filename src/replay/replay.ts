import type { Action, Config, DecisionCode, SignalHit } from '../types.ts';
import { reduce } from '../engine/engine.ts';
import { initialState } from '../engine/state.ts';
import { observation, type StepContext } from '../core/step.ts';
import type { ReplayItem } from '../readers/types.ts';

// Replay runs the detector over a recorded trajectory as if live, with enforce semantics and the hook's
// own code path (observation -> reduce). Once the main agent is stopped the session would have ended, so
// the replay ends there; a stopped subagent's later calls are kept out by the engine's sticky stop.

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
  /** The call at which the main agent was stopped, if it was. */
  stoppedAt?: number;
}

export function replayItems(items: Iterable<ReplayItem>, config: Config, ctx: StepContext = {}): { interventions: Intervention[]; summary: ReplaySummary } {
  let state = initialState();
  const interventions: Intervention[] = [];
  const summary: ReplaySummary = { calls: 0, nudges: 0, denies: 0, stops: 0 };
  for (const { event, step } of items) {
    if (event.kind === 'post-tool') summary.calls++;
    const r = reduce(state, observation(event, ctx), config);
    state = r.state;
    const d = r.decision;
    if (d.action === 'allow' || d.repeat) continue;
    const message = d.action === 'stop' ? (d.stopReason ?? '') : (d.message ?? '');
    interventions.push({ step, action: d.action, ...(d.code ? { code: d.code } : {}), agent: event.agent.id, signals: d.signals, message });
    if (d.action === 'nudge') summary.nudges++;
    else if (d.action === 'deny') summary.denies++;
    else {
      summary.stops++;
      if (event.agent.id === 'main') {
        summary.stoppedAt = step;
        break;
      }
    }
  }
  return { interventions, summary };
}
