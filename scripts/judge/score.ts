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

export function fires(t: Trajectory, config: Config, model: JudgeModel): Fire[] {
  let state = initialState();
  const out: Fire[] = [];
  for (const [i, { step }] of t.items.entries()) {
    const r = reduce(state, t.observations[i]!, config, model);
    state = r.state;
    if (r.decision.action === 'allow' || r.decision.repeat) continue;
    out.push({ step, action: r.decision.action });
  }
  return out;
}

export interface Metrics {
  high: [number, number];
  all: [number, number];
  healthyAlarmed: [number, number];
  stopsOnResolved: [number, number];
  delays: number[];
}

export function score(trajectories: Trajectory[], config: Config, model: JudgeModel): Metrics {
  const m: Metrics = { high: [0, 0], all: [0, 0], healthyAlarmed: [0, 0], stopsOnResolved: [0, 0], delays: [] };
  for (const t of trajectories) {
    const f = fires(t, config, model);
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
  return `high ${f(m.high)}, all ${f(m.all)}, healthy alarmed ${f(m.healthyAlarmed)}, stops on resolved healthy ${f(m.stopsOnResolved)}, median delay ${median(m.delays) ?? '-'}`;
}
