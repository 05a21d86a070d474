import type { CallStep, Entry } from '../types.ts';
import type { SignalMemory } from './state.ts';
import { lastN } from './state.ts';
import { changesFiles } from '../detect/edits.ts';

// Task-wide memory, for what the window alone cannot tell: whether a read brought anything new, whether
// the code came back to a state that already failed this way.

const MAX_READS = 300;
const MAX_STATES = 60;
/** Calls whose count in the task is kept; past that the least recently run is forgotten. */
const MAX_RUNS = 40;
/** Outcome lines remembered: a few dozen calls' worth, enough to know what the recent attempts have said. */
const MAX_LINES = 600;
/** Files whose latest read is remembered, to tell whether the changes made since show in the next. */
const MAX_VIEWS = 12;

/**
 * The call counted once more (again with its outcome, or afresh with a new one), moved to the end as the most recent.
 */
function counted(runs: Record<string, [string, number]> | undefined, step: CallStep): Record<string, [string, number]> {
  const out: Record<string, [string, number]> = {};
  const before = runs?.[step.key];
  if (runs) {
    // one copy, without the call and without the least recent of the others past MAX_RUNS - 1
    const keys = Object.keys(runs);
    let forget = keys.length - (before ? 1 : 0) - MAX_RUNS + 1;
    for (const k of keys) {
      if (k === step.key) continue;
      if (forget > 0) forget--;
      else out[k] = runs[k]!;
    }
  }
  out[step.key] = [step.out, before?.[0] === step.out ? before[1] + 1 : 1];
  return out;
}

/** Records a call in the task's memory and returns it as a window entry, annotated with what was known. */
export function rememberCall(
  memory: SignalMemory,
  step: CallStep,
  batch: number,
): { next: SignalMemory; entry: Entry } {
  const entry: Entry = { ...step, edits: memory.edits, batch };
  let { edits, reads, states, lines = [], views = [] } = memory;
  if (step.lines) {
    // a step's lines are distinct and a few dozen at most: looking each up in the memory's few hundred is
    // cheaper than a set of them, and when none is known the memory's lines stay as they are, in order
    let fresh = 0;
    for (const h of step.lines) if (!lines.includes(h)) fresh++;
    entry.fresh = fresh;
    if (fresh === step.lines.length) lines = lastN(lines.concat(step.lines), MAX_LINES);
    else {
      const added = new Set(step.lines);
      lines = lastN([...lines.filter((h) => !added.has(h)), ...step.lines], MAX_LINES);
    }
  }
  if (step.cls === 'read' && step.ok !== false && !step.empty) {
    entry.reread = step.unchanged === true || reads.includes(step.out);
    reads = lastN([...reads.filter((r) => r !== step.out), step.out], MAX_READS);
  }
  // a read "unchanged since your last read" shows nothing of the file, so it neither proves nor disproves a change
  // A search of one file for one thing (`grep -n foo cfg.py`) is a view of it too: the lines it finds show a change
  // (one view of the file for each thing searched; a read's is the file's latest)
  const searched = step.cls === 'search' && step.sought !== undefined;
  if ((step.cls === 'read' || searched) && step.ok !== false && !step.empty && !step.unchanged && step.target) {
    const { target, out } = step;
    const region = searched ? `s:${step.sought}` : (step.region ?? '');
    const same = (v: (typeof views)[number]) => v[0] === target && (!searched || v[1] === region);
    const before = views.find(same);
    if (before !== undefined && before[3] > 0 && before[1] === region && before[2] === out) entry.unseen = true;
    views = lastN([...views.filter((v) => !same(v)), [target, region, out, 0]], MAX_VIEWS);
  } else if (views.length > 0 && changesFiles(step))
    views = views.map((v) => (step.target === undefined || v[0] === step.target ? [v[0], v[1], v[2], v[3] + 1] : v));
  // Edit/revert, seen in the working tree where the hook could fingerprint it after a failure, and in the
  // edits themselves: an edit that undoes an earlier one (its old and new text swapped), or a whole-file
  // write that brings back content written before.
  const edit = step.cls === 'edit' && step.ok !== false;
  if (step.tree !== undefined && step.fail !== undefined) {
    const state = `t:${step.tree}:${step.fail}`;
    const at = states.lastIndexOf(state);
    entry.returned = at !== -1 && at !== states.length - 1;
    states = lastN([...states, state], MAX_STATES);
  } else if (edit && step.undo !== undefined && step.change !== undefined) {
    entry.returned = !step.noop && states.includes(`c:${step.undo}`);
    states = lastN([...states, `c:${step.change}`], MAX_STATES);
  } else if (edit && step.written !== undefined) {
    // the file's content comes back to what it was, with other content written to it in between
    const file = `w:${step.target ?? ''}:`;
    const state = file + step.written;
    const previous = states.findLast((s) => s.startsWith(file));
    entry.returned = previous !== undefined && previous !== state && states.includes(state);
    states = lastN([...states, state], MAX_STATES);
  }
  // an edit that changes nothing is no change: a failure after it is the same failure again
  if (step.cls === 'edit' && step.ok !== false && !step.noop) edits += 1;
  const next: SignalMemory = { ...memory, edits, reads, states, lines, runs: counted(memory.runs, step) };
  if (views.length > 0) next.views = views;
  return { next, entry };
}
