import { attempts, recentSince } from './recent.ts';
import type { CallStep, Entry } from '../types.ts';
import type { Signal } from './signal.ts';

/** An edit that changed nothing because the tool refused it: its text was not found, or it could not even parse it. */
function refusedEdit(e: Entry): boolean {
  return e.rejected === true || (e.cls === 'edit' && e.malformed === true);
}

/**
 * An edit of a file that may not be written (`EACCES`, `Permission denied`, whichever tool or shell wrote it):
 * repeated only by other such refusals, as a write refused and then one mistyped are two different mistakes.
 */
function deniedWrite(e: Entry): boolean {
  return e.cls === 'edit' && e.ok === false && e.cause === 'permission' && !refusedEdit(e);
}

/** Edits refused again and again with no edit landing in between: resubmitting instead of reading why. */
export const editRejected: Signal = (window) => {
  const last = window.at(-1);
  if (!last) return undefined;
  const kind = deniedWrite(last) ? deniedWrite : refusedEdit;
  if (!kind(last)) return undefined;
  const calls = recentSince(window, kind);
  const n = attempts(calls);
  return n >= 2 ? { code: 'EDIT_REJECTED', value: n, calls, detail: 'rejected each time' } : undefined;
};

/** The very same edit applied again: whatever it returned, re-applying it changes nothing for the better. */
export const repeatedEdit: Signal = (window) => {
  const last = window.at(-1);
  if (!last || last.cls !== 'edit') return undefined;
  const calls = window.filter((e) => e.cls === 'edit' && e.key === last.key);
  const n = attempts(calls);
  return n >= 2 ? { code: 'REPEATED_EDIT', value: n, calls, detail: 'the same edit again' } : undefined;
};

/** The code came back to a state it was in before, failing the same way there (edit/revert). */
export const oscillation: Signal = (window) => {
  const last = window.at(-1);
  if (!last?.returned) return undefined;
  const calls = window.filter((e) => e.returned);
  return { code: 'TREE_OSCILLATION', value: attempts(calls), calls, detail: 'back to an earlier state' };
};

/**
 * A call that reported changing a file, or may have changed any (an edit of no named file, code run inline):
 * its effect should show in the file's next read.
 */
export function changesFiles(step: CallStep): boolean {
  if (step.ok === false) return false;
  if (step.cls === 'edit') return !step.noop && !step.rejected;
  return step.cls === 'exec' && step.target === undefined && step.intent === undefined;
}

/**
 * One file read after each change of it, showing the same content each time: the changes never take effect
 * (blank lines "removed" with awk, then sed, then python, the file the same at every read). Counted once per
 * read after changes; a read that shows the file otherwise ends it.
 */
export const unseenEdit: Signal = (window) => {
  const last = window.at(-1);
  if (!last?.unseen) return undefined;
  const calls: Entry[] = [];
  let value = 0;
  for (let i = window.length - 1; i >= 0; i--) {
    const e = window[i]!;
    if (e.cls === last.cls && e.target === last.target && !e.unchanged) {
      if (e.region !== last.region || e.sought !== last.sought || e.out !== last.out) break;
      calls.unshift(e);
      if (e.unseen) value++;
    } else if (changesFiles(e) && (e.target === undefined || e.target === last.target)) calls.unshift(e);
  }
  return value >= 2 ? { code: 'UNSEEN_EDIT', value, calls, detail: 'the file unchanged after each edit' } : undefined;
};
