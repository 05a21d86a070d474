import type { Entry } from '../types.ts';

/** How far back the counting signals look. */
export const RECENT = 8;

/** The entries of the last `n` batches of the window (a batch of parallel calls is one step of the agent's). */
export function lastBatches(window: readonly Entry[], n: number): readonly Entry[] {
  let seen = 0;
  for (let i = window.length - 1; i >= 0; i--) {
    if (i === window.length - 1 || window[i]!.batch !== window[i + 1]!.batch) seen++;
    if (seen > n) return window.slice(i + 1);
  }
  return window;
}

/** How many attempts a set of calls makes: calls issued together, in one batch, are one attempt. */
export function attempts(calls: readonly Entry[]): number {
  let n = 0;
  for (let i = 0; i < calls.length; i++) if (i === 0 || calls[i]!.batch !== calls[i - 1]!.batch) n++;
  return n;
}

/**
 * Where the hook fingerprinted the working tree at both calls, it
 * is the same (a change the person or a shell made shows there).
 */
export function sameTree(e: Entry, last: Entry): boolean {
  return e.tree === undefined || last.tree === undefined || e.tree === last.tree;
}

/** Nothing changed between two calls: no edit landed, and the working tree, where fingerprinted, is the same. */
export function unchangedSince(e: Entry, last: Entry): boolean {
  return e.edits === last.edits && sameTree(e, last);
}

/**
 * The entries of the recent batches that `match` the latest one with nothing changed between them and it:
 * repeated attempts at one thing, even with other calls (reads, greps) interleaved.
 */
export function recentSince(
  window: readonly Entry[],
  match: (e: Entry, last: Entry) => boolean,
  recent = RECENT,
): Entry[] {
  const last = window.at(-1);
  if (!last) return [];
  return lastBatches(window, recent).filter((e) => unchangedSince(e, last) && match(e, last));
}
