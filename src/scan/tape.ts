import type { Decision, Observation } from '../types.ts';
import type { UsageRecord } from '../readers/types.ts';
import { type MeterInput, meterView } from './meter.ts';

// A meter's input kept in order, to be fed to a meter later and elsewhere: a file replayed in a worker
// thread is metered in the main thread, in the scan's order, because what a file's responses add depends
// on the files metered before it (a resumed session repeats responses that were counted already).

export type MeterOp =
  | { usage: UsageRecord }
  | { obs: Observation; step: number; decision?: Decision; mode?: string }
  | { finish: true };

export class MeterTape implements MeterInput {
  readonly ops: MeterOp[] = [];

  usage(record: UsageRecord): void {
    this.ops.push({ usage: record });
  }

  /** Keeps what the meter reads of the observation (meterView): with its sketches a tape is a fifth of its file. */
  observe(obs: Observation, step: number, decision?: Decision, mode?: string): void {
    this.ops.push({
      obs: meterView(obs),
      step,
      ...(decision ? { decision } : {}),
      ...(mode !== undefined ? { mode } : {}),
    });
  }

  finish(): void {
    this.ops.push({ finish: true });
  }
}

/** Feeds a tape to a meter, as the meter would have been fed while the file was read. */
export function playTape(ops: readonly MeterOp[], meter: MeterInput): void {
  for (const op of ops) {
    if ('usage' in op) meter.usage(op.usage);
    else if ('obs' in op) meter.observe(op.obs, op.step, op.decision, op.mode);
    else meter.finish();
  }
}
