import type { Entry } from '../types.ts';
import { similarity } from '../core/sketch.ts';
import { attempts, lastBatches, recentSince, unchangedSince } from './recent.ts';
import type { Signal } from './signal.ts';

/** How many batches back a lookup or an outcome is compared (fewer than the other signals' RECENT). */
const LOOKUP_BATCHES = 6;
/** Two search terms this alike (estimated Jaccard of their 4-character shingles) are one lookup reworded. */
const REWORDED = 0.3;

/** A lookup that came back with nothing: a search without matches, a read of a file that is not there. */
function foundNothing(e: Entry): boolean {
  return (e.cls === 'search' || e.cls === 'read') && !e.refused && (e.empty === true || e.ok === false);
}

/** The same lookup again, maybe reworded: in the same place (or none named), for the same thing (or none named). */
function sameLookup(a: Entry, b: Entry): boolean {
  if (a.target !== b.target) return false;
  if (a.term === undefined || b.term === undefined) return a.term === b.term && a.tool === b.tool;
  return similarity(a.term, b.term) >= REWORDED;
}

/**
 * Lookups that keep finding nothing: the same search reworded against the same place, again and again,
 * with nothing found and nothing changed in between. Searches that move (other places, other names) are
 * exploration, and a search that finds something is progress: either ends the streak.
 */
export const emptyResult: Signal = (window) => {
  const last = window.at(-1);
  if (!last || !foundNothing(last)) return undefined;
  const calls: Entry[] = [];
  const recent = lastBatches(window, LOOKUP_BATCHES);
  for (let i = recent.length - 1; i >= 0; i--) {
    const e = recent[i]!;
    if (!unchangedSince(e, last)) break;
    if (e.cls !== 'search' && e.cls !== 'read') continue;
    if (!foundNothing(e)) break;
    if (sameLookup(e, last)) calls.unshift(e);
  }
  const n = attempts(calls);
  return n >= 2 ? { code: 'EMPTY_RESULT', value: n, calls, detail: 'nothing found' } : undefined;
};

/** Varied calls of one tool that all come back with the same result: the variations change nothing. */
export const sameOutcome: Signal = (window) => {
  const last = window.at(-1);
  if (!last || last.cls === 'edit' || last.empty) return undefined;
  const calls = recentSince(window, (e) => e.tool === last.tool && e.out === last.out, LOOKUP_BATCHES);
  const keys = new Set(calls.map((e) => e.key)).size;
  const n = attempts(calls);
  return n >= 2 && keys >= 2 ? { code: 'SAME_OUTCOME', value: n, calls, detail: 'same result each time' } : undefined;
};
