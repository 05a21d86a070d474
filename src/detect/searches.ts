import type { Entry } from '../types.ts';
import { similarity } from '../core/sketch.ts';
import { attempts, lastBatches, recentSince, unchangedSince } from './recent.ts';
import { otherObjects, type Signal } from './signal.ts';

/** How many batches back a lookup or an outcome is compared (fewer than the other signals' RECENT). */
const LOOKUP_BATCHES = 6;
/** Two search terms this alike (estimated Jaccard of their 4-character shingles) are one lookup reworded. */
const REWORDED = 0.3;

/** Failures that say the thing looked for is not there. Another failure (a hook's refusal, a crash) is no answer. */
const NOT_THERE = new Set(['no-such-file', 'http-404', 'bare']);

/** A lookup that came back with nothing: a search without matches, a read of a file that is not there. */
function foundNothing(e: Entry): boolean {
  if ((e.cls !== 'search' && e.cls !== 'read') || e.refused) return false;
  return e.empty === true || (e.ok === false && (NOT_THERE.has(e.cause ?? '') || e.fresh === 0));
}

/** The same lookup again, maybe reworded: in the same place (or none named), for the same thing (or none named). */
function sameLookup(a: Entry, b: Entry): boolean {
  if (a.target !== b.target) return false;
  // A lookup that names no term asks the place what it holds: the same question only from the same program, or
  // failing alike (`ls`, `cat package.json`, `git status`, each failing bare once the folder is gone; a file that
  // is not there, read with the agent's Read tool and then with `cat`)
  if (a.term === undefined || b.term === undefined)
    return (
      a.term === b.term &&
      ((a.tool === b.tool && sameProgram(a, b)) ||
        (a.ok === false && b.ok === false && (a.tool === b.tool || a.cause === b.cause)))
    );
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

/** How far back a streak of fruitless lookups is followed. */
const STREAK_CALLS = 30;

/** A lookup (a search, a read, a fetch) that found nothing, or nothing the task had not seen. */
function fruitlessLookup(e: Entry): boolean {
  return foundNothing(e) || ((e.cls === 'search' || e.cls === 'read') && !e.refused && e.ok !== false && e.fresh === 0);
}

/** A call that told something new: an answer with lines the task had not seen. */
function told(e: Entry): boolean {
  return e.ok !== false && !e.empty && (e.fresh ?? 1) > 0;
}

/**
 * Lookups that keep finding nothing new, wherever they look: guessed URLs that all come back 404, reworded
 * web searches without results, a glob widened again and again. Two or three while exploring are normal;
 * persistence is what counts, so the streak only ends where a call tells something new or something changes.
 */
export const fruitless: Signal = (window) => {
  const last = window.at(-1);
  if (!last || !fruitlessLookup(last)) return undefined;
  const calls: Entry[] = [];
  for (let i = window.length - 1; i >= Math.max(0, window.length - STREAK_CALLS); i--) {
    const e = window[i]!;
    if (!unchangedSince(e, last)) break;
    if (fruitlessLookup(e)) calls.unshift(e);
    else if (told(e)) break;
  }
  const n = attempts(calls);
  return n >= 2 ? { code: 'FRUITLESS', value: n, calls, detail: 'nothing new found' } : undefined;
};

/**
 * One thing looked for: a term alike (reworded at most), whatever the place and the tool; or a page on one site,
 * whichever its address (pages guessed one after another, none there).
 */
function soughtAlike(a: Entry, b: Entry): boolean {
  if (a.cls === 'read' || b.cls === 'read') return a.cls === b.cls && a.sought !== undefined && a.sought === b.sought;
  return a.term !== undefined && b.term !== undefined && similarity(a.term, b.term) >= REWORDED;
}

/**
 * One thing looked for in place after place, with tool after tool (a Grep in one folder, rg in another, a Glob,
 * a find), or page after page of one site, found nowhere: a hunt for something that is not there. Reading other
 * things between the lookups is part of the hunt; finding the thing, or a change, ends it.
 */
export const hunt: Signal = (window) => {
  const last = window.at(-1);
  if (!last || last.sought === undefined || !foundNothing(last)) return undefined;
  const calls: Entry[] = [];
  for (let i = window.length - 1; i >= Math.max(0, window.length - STREAK_CALLS); i--) {
    const e = window[i]!;
    if (!unchangedSince(e, last)) break;
    if (!soughtAlike(e, last)) continue;
    if (!foundNothing(e)) break;
    calls.unshift(e);
  }
  const places = new Set(calls.map((e) => `${e.tool}\u0000${e.target ?? ''}`)).size;
  const n = attempts(calls);
  // the same lookup in the same place, again, is EMPTY_RESULT's; a hunt moves
  if (n < 2 || places < 2) return undefined;
  const detail = last.cls === 'read' ? 'no such page' : 'found nowhere';
  return { code: 'HUNT', value: n, calls, detail, subject: last.sought };
};

/** Whether two calls run the same program (or are the same non-shell tool): one way of asking. */
function sameProgram(a: Entry, b: Entry): boolean {
  return a.prog === undefined || b.prog === undefined ? a.prog === b.prog : a.prog.some((p) => b.prog!.includes(p));
}

/**
 * Varied calls of one program that all come back with the same result: the variations change nothing. An
 * answer that holds nothing (an edit script printing nothing, a shell banner alone) says nothing about them,
 * and calls naming other objects by id (each draft trashed, each acknowledged alike) vary what they act on.
 */
export const sameOutcome: Signal = (window) => {
  const last = window.at(-1);
  // lookups that give the same answer are read again, not varied: REREAD and FRUITLESS weigh them
  if (!last || last.cls === 'edit' || last.cls === 'read' || last.cls === 'search' || last.empty || !last.lines)
    return undefined;
  const calls = recentSince(
    window,
    (e) =>
      e.tool === last.tool &&
      e.out === last.out &&
      e.ids === last.ids &&
      !otherObjects(e, last) &&
      sameProgram(e, last),
    LOOKUP_BATCHES,
  );
  const keys = new Set(calls.map((e) => e.key)).size;
  const n = attempts(calls);
  return n >= 2 && keys >= 2 ? { code: 'SAME_OUTCOME', value: n, calls, detail: 'same result each time' } : undefined;
};
