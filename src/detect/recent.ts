import type { Entry } from '../engine/state.ts';

/** How far back the counting signals look. */
export const RECENT = 8;

/**
 * The recent entries that `match` the latest one with no successful edit between them and it: repeated
 * attempts at one thing, even with other calls (reads, greps) interleaved.
 */
export function recentSince(window: readonly Entry[], match: (e: Entry, last: Entry) => boolean, recent = RECENT): Entry[] {
  const last = window.at(-1);
  if (!last) return [];
  return window.slice(-recent).filter((e) => e.edits === last.edits && match(e, last));
}
