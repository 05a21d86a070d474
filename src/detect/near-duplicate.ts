import { similarity } from '../core/sketch.ts';
import type { Entry } from '../types.ts';
import { attempts, recentSince } from './recent.ts';
import { alikeOutcome, describeOutcome, otherObjects, type Signal } from './signal.ts';

const SIMILAR = 0.5;

/**
 * Near-identical calls: for searches, the same place and a near-identical term; for reads and edits, the
 * same file; for searches that name no term, the same place too; for the rest, near-identical arguments.
 */
function alike(a: Entry, b: Entry): boolean {
  // calls naming other objects by id (drafts, commits) are one job done to many, not one call varied
  if (a.ids !== b.ids || otherObjects(a, b)) return false;
  if (a.term !== undefined && b.term !== undefined)
    return a.target === b.target && similarity(a.term, b.term) >= SIMILAR;
  // a lookup of another place is another lookup, as EMPTY_RESULT reads it: folders listed one by one, each empty
  if ((a.cls === 'read' || a.cls === 'edit' || a.cls === 'search') && a.target !== b.target) return false;
  return similarity(a.sim ?? [], b.sim ?? []) >= SIMILAR;
}

/**
 * Whether a call's outcome can tell of a retry that got nowhere. A listing or a read that keeps giving the same
 * answer is read again, not retried: REREAD weighs it; and an action that succeeds in silence (rm, mkdir, gofmt, a
 * script that prints nothing) says nothing about being stuck, last or among the attempts before. An edit that landed
 * and changed the file is progress, not one more attempt: only an edit rejected or changing nothing tells of a retry.
 */
function telling(e: Entry): boolean {
  if (e.cls === 'edit') return e.ok === false || e.noop === true;
  const lookup = e.cls === 'read' || e.cls === 'search';
  // a test, lint or build run that printed nothing and did not say it passed told nothing, like an empty lookup
  if (e.cls === 'test' && e.ok !== true) return true;
  return e.ok === false || (lookup ? !!e.empty : !e.empty);
}

/**
 * The same tool with near-identical arguments and the same kind of outcome, with nothing changed in
 * between: grep variants that keep finding nothing, an edit resubmitted with cosmetic changes and rejected
 * alike, `pytest -q` / `pytest tests/` failing the same way.
 */
export const nearDuplicate: Signal = (window) => {
  const last = window.at(-1);
  if (!last || !telling(last)) return undefined;
  const calls = recentSince(
    window,
    (e, last) => e.tool === last.tool && telling(e) && alikeOutcome(e, last) && alike(e, last),
  );
  const n = attempts(calls);
  return n >= 2 ? { code: 'NEAR_DUPLICATE', value: n, calls, detail: describeOutcome(last, calls) } : undefined;
};
