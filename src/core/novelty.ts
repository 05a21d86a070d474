import { isPlainAscii } from './plain-ascii.ts';
import { hashText } from './sketch.ts';

// What an answer says, line by line, as small hashes: the engine remembers the lines a task has seen, so
// that an attempt whose answer holds only lines seen before is known to have added nothing, however it
// was spelled, while exploration that keeps finding new lines is known to be progress.

/** Lines kept per outcome: the first and the last, as a long output's head and tail say most. */
const HEAD = 12;
const TAIL = 12;
/** How much of a long output's text, from each end, is read for its lines. */
const EDGE = 8 * 1024;

/**
 * Whether a line holds two letters or digits, of any script (plain-ascii.ts: \p{L} compiles slowly). Two ASCII
 * ones answer for any line, since they are letters and digits of every script too; only a line without them
 * is asked about the others.
 */
export function wordy(line: string): boolean {
  return /[A-Za-z0-9].*[A-Za-z0-9]/.test(line) || (!isPlainAscii(line) && /[\p{L}\p{N}].*[\p{L}\p{N}]/u.test(line));
}

/**
 * Hashes of an outcome's distinct lines (from its canonical text, where times, ids and durations are already
 * gone), case and spacing folded. Numbers stay: a count that moved is news.
 */
export function outcomeLines(canonical: string): number[] {
  // a long output's head and tail say what it adds; its middle (a file read whole, a long log) is not read
  let text = canonical;
  if (canonical.length > 2 * EDGE) {
    // cut where lines end, so that no half line reads as a line of its own
    const head = canonical.lastIndexOf('\n', EDGE);
    const tail = canonical.indexOf('\n', canonical.length - EDGE);
    text = `${canonical.slice(0, Math.max(head, 0))}\n${canonical.slice(tail === -1 ? canonical.length : tail + 1)}`;
  }
  const seen = new Set<number>();
  const order: number[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim().toLowerCase().replace(/\s+/g, ' ');
    // a line of punctuation alone (a rule, a brace) says nothing of its own
    if (!wordy(line)) continue;
    const h = hashText(line);
    if (seen.has(h)) continue;
    seen.add(h);
    order.push(h);
  }
  return order.length <= HEAD + TAIL ? order : [...order.slice(0, HEAD), ...order.slice(-TAIL)];
}
