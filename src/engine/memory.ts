import type { CallStep } from '../types.ts';
import type { SignalMemory } from './state.ts';

// Task-wide memory, for signals that look further back than the window: whether a region was read
// before with nothing changed since, whether the tree came back to a state that failed the same way.

const MAX_READS = 200;
const MAX_TREE_FAILURES = 50;

/** Facts about a call relative to what came before it in the task. */
export interface Seen {
  /** The same file region was read before and no edit happened since. */
  reread: boolean;
  /** The working tree is in a state it was in before, failing the same way then. */
  treeReturned: boolean;
}

export function rememberCall(memory: SignalMemory, step: CallStep): { next: SignalMemory; seen: Seen } {
  const seen: Seen = { reread: false, treeReturned: false };
  let { reads, edits, treeFailures } = memory;
  if (step.cls === 'edit' && step.ok !== false) edits += 1;
  if (step.region !== undefined && step.cls === 'read') {
    const lastEdits = reads[step.region];
    seen.reread = lastEdits !== undefined && lastEdits === edits;
    const entries = Object.entries({ ...reads, [step.region]: edits });
    reads = Object.fromEntries(entries.length > MAX_READS ? entries.slice(entries.length - MAX_READS) : entries);
  }
  if (step.tree !== undefined && step.fail !== undefined) {
    const pair = `${step.tree}:${step.fail}`;
    const at = treeFailures.indexOf(pair);
    seen.treeReturned = at !== -1 && at !== treeFailures.length - 1;
    treeFailures = [...treeFailures.filter((p) => p !== pair), pair].slice(-MAX_TREE_FAILURES);
  }
  return { next: { ...memory, reads, edits, treeFailures }, seen };
}
