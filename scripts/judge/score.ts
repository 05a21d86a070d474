// The corpus metric of ../shared/tools/score_real.py, on replays through the full engine: a fire inside
// [start, end+1] of a segment catches it; any fire on a healthy trajectory alarms it; a stop on a
// resolved healthy trajectory is a false stop.
import type { Config } from '../../src/types.ts';
import type { JudgeModel } from '../../src/judge/model.ts';
import { reduce } from '../../src/engine/engine.ts';
import { initialState } from '../../src/engine/state.ts';
import type { Trajectory } from './extract.ts';

export interface Fire {
  step: number;
  action: string;
}

/**
 * The interventions of a replay. `detectionOnly` leaves out self-protection's refusals, which no setting of the
 * judge changes: fitting chooses thresholds on what detection does.
 */
export function fires(t: Trajectory, config: Config, model: JudgeModel, detectionOnly = false): Fire[] {
  let state = initialState();
  const out: Fire[] = [];
  for (const [i, { step }] of t.items.entries()) {
    const r = reduce(state, t.observations[i]!, config, model);
    state = r.state;
    if (r.decision.action === 'allow' || r.decision.repeat || (detectionOnly && r.decision.code === 'SELF_PROTECT'))
      continue;
    out.push({ step, action: r.decision.action });
  }
  return out;
}

export interface Metrics {
  high: [number, number];
  all: [number, number];
  healthyAlarmed: [number, number];
  /** Stops on healthy trajectories (users' sessions carry no outcome: every healthy one counts). */
  stopsOnHealthy: [number, number];
  stopsOnResolved: [number, number];
  delays: number[];
}

export function noMetrics(): Metrics {
  return {
    high: [0, 0],
    all: [0, 0],
    healthyAlarmed: [0, 0],
    stopsOnHealthy: [0, 0],
    stopsOnResolved: [0, 0],
    delays: [],
  };
}

export function add(a: Metrics, b: Metrics): Metrics {
  const p = (x: [number, number], y: [number, number]): [number, number] => [x[0] + y[0], x[1] + y[1]];
  return {
    high: p(a.high, b.high),
    all: p(a.all, b.all),
    healthyAlarmed: p(a.healthyAlarmed, b.healthyAlarmed),
    stopsOnHealthy: p(a.stopsOnHealthy, b.stopsOnHealthy),
    stopsOnResolved: p(a.stopsOnResolved, b.stopsOnResolved),
    delays: [...a.delays, ...b.delays],
  };
}

export function score(trajectories: Trajectory[], config: Config, model: JudgeModel, detectionOnly = false): Metrics {
  const m = noMetrics();
  for (const t of trajectories) {
    const f = fires(t, config, model, detectionOnly);
    for (const s of t.label.segments) {
      const hits = f.filter((x) => x.step >= s.start && x.step <= s.end + 1).map((x) => x.step);
      m.all[1]++;
      if (s.confidence === 'high') m.high[1]++;
      if (hits.length > 0) {
        m.all[0]++;
        if (s.confidence === 'high') m.high[0]++;
        m.delays.push(Math.min(...hits) - s.clear);
      }
    }
    if (t.label.overall === 'healthy') {
      m.healthyAlarmed[1]++;
      if (f.length > 0) m.healthyAlarmed[0]++;
      m.stopsOnHealthy[1]++;
      if (f.some((x) => x.action === 'stop')) m.stopsOnHealthy[0]++;
      if (t.outcome === 'resolved') {
        m.stopsOnResolved[1]++;
        if (f.some((x) => x.action === 'stop')) m.stopsOnResolved[0]++;
      }
    }
  }
  return m;
}

export function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function format(m: Metrics): string {
  const f = ([a, b]: [number, number]) => `${a}/${b}`;
  return `high ${f(m.high)}, all ${f(m.all)}, healthy alarmed ${f(m.healthyAlarmed)}, stops on healthy ${f(m.stopsOnHealthy)}, stops on resolved healthy ${f(m.stopsOnResolved)}, median delay ${median(m.delays) ?? '-'}`;
}
