import { attempts, recentSince } from './recent.ts';
import type { Entry } from '../types.ts';
import type { Signal } from './signal.ts';

/** An edit that changed nothing because the tool refused it: its text was not found, or it could not even parse it. */
function refusedEdit(e: Entry): boolean {
  return e.rejected === true || (e.cls === 'edit' && e.malformed === true);
}

/** Edits the tool refused again and again with no edit landing in between: resubmitting instead of reading why. */
export const editRejected: Signal = (window) => {
  const last = window.at(-1);
  if (!last || !refusedEdit(last)) return undefined;
  const calls = recentSince(window, refusedEdit);
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
