import type { CallStep } from '../types.ts';
import type { Entry, SignalMemory } from './state.ts';
import { lastN } from './state.ts';

// Task-wide memory, for what the window alone cannot tell: whether a read brought anything new, whether
// the code came back to a state that already failed this way.

const MAX_READS = 300;
const MAX_STATES = 60;

/** Records a call in the task's memory and returns it as a window entry, annotated with what was known. */
export function rememberCall(memory: SignalMemory, step: CallStep, batch: number): { next: SignalMemory; entry: Entry } {
  const entry: Entry = { ...step, edits: memory.edits, batch };
  let { edits, reads, states } = memory;
  if (step.cls === 'read' && step.ok !== false && !step.empty) {
    entry.reread = reads.includes(step.out);
    reads = lastN([...reads.filter((r) => r !== step.out), step.out], MAX_READS);
  }
  // The state an outcome speaks of: the working tree where the hook could fingerprint it, otherwise the
  // file content an edit tool echoes back (its outcome digest).
  const state = step.tree !== undefined && step.fail !== undefined ? `t:${step.tree}:${step.fail}` : step.cls === 'edit' && step.ok !== false && !step.empty ? `e:${step.out}` : undefined;
  if (state !== undefined) {
    const at = states.lastIndexOf(state);
    entry.returned = at !== -1 && at !== states.length - 1;
    states = lastN([...states, state], MAX_STATES);
  }
  if (step.cls === 'edit' && step.ok !== false) edits += 1;
  return { next: { ...memory, edits, reads, states }, entry };
}
