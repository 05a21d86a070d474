import type { Config } from '../types.ts';
import type { ReplayItem } from '../readers/types.ts';
import { Replay } from '../replay/replay.ts';
import type { MeterInput } from './meter.ts';

/**
 * Replays a recorded session through the engine, as the hook would have seen it, and meters what its
 * stalls cost. Unlike `replay`, it reads on after a stop: the recorded agent went on (what it spent then
 * is what a stop would have spared), and a new prompt after it starts a new task, as it would live.
 */
export function measure(items: Iterable<ReplayItem>, config: Config, meter: MeterInput): void {
  const replay = new Replay(config);
  for (const item of items) {
    const r = replay.push(item);
    meter.observe(r.obs, item.step, r.intervention ? r.decision : undefined);
  }
  meter.finish();
}
