import { codeUnits } from './code-units.ts';
import { isPlainAscii } from './plain-ascii.ts';
import { FNV_PRIME, FNV_START, fnvEnd, fnvStep, hashText } from './sketch.ts';

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

/** A line folded (trimmed, lower case, each run of spaces one space), hashed when it is wordy. */
function foldedHash(raw: string): number | undefined {
  const line = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  // a line of punctuation alone (a rule, a brace) says nothing of its own
  return wordy(line) ? hashText(line) : undefined;
}

// How each UTF-16 code unit folds, worked out the first time it is met: a space (trim and \s see it), a letter
// or digit (of the lowered character), another character, or one that only the plain definition folds right:
// a surrogate, final-sigma Σ (lowered by its neighbours) and a character that lowers to two.
const SPACE = 1;
const WORD = 2;
const OTHER = 3;
const SLOW = 4;
const kinds = new Uint8Array(0x10000);
const lowered = new Uint16Array(0x10000);

/** An ASCII character's kind and lowered form, by its code: the expressions otherKind asks cost a compile each. */
function asciiKind(c: number): number {
  if (c === 32 || (c >= 9 && c <= 13)) return SPACE;
  const low = c >= 65 && c <= 90 ? c + 32 : c;
  lowered[c] = low;
  return (low >= 97 && low <= 122) || (low >= 48 && low <= 57) ? WORD : OTHER;
}

/**
 * Blocks of code units whose kind is known without asking \p{L} (half a millisecond to compile in a hook
 * process): the symbols and punctuation tool output is full of (test runners' ✓ and ❯, box drawing, arrows,
 * curly quotes, bullets), which lower to themselves, and the Latin letters of Latin-1 and Latin Extended-A,
 * which lower to one letter. novelty.test.ts holds every code unit of them to the expressions otherKind asks.
 */
export const KNOWN_BLOCKS: readonly (readonly [from: number, to: number, kind: 'word' | 'other'])[] = [
  [0xc0, 0xd6, 'word'],
  [0xd8, 0xf6, 'word'],
  [0xf8, 0x12f, 'word'],
  [0x131, 0x17f, 'word'],
  [0x2010, 0x2027, 'other'],
  [0x2030, 0x205e, 'other'],
  [0x2190, 0x23ff, 'other'],
  [0x2500, 0x2775, 'other'],
  [0x2794, 0x2bff, 'other'],
];

function otherKind(c: number): number {
  const ch = String.fromCharCode(c);
  const low = ch.toLowerCase();
  for (let i = 0; i < KNOWN_BLOCKS.length; i++) {
    const block = KNOWN_BLOCKS[i]!;
    if (c >= block[0] && c <= block[1]) {
      lowered[c] = low.charCodeAt(0);
      return block[2] === 'word' ? WORD : OTHER;
    }
  }
  if (/\s/.test(ch)) return SPACE;
  if (low.length !== 1 || c === 0x3a3 || (c >= 0xd800 && c <= 0xdfff)) return SLOW;
  lowered[c] = low.charCodeAt(0);
  return /[\p{L}\p{N}]/u.test(low) ? WORD : OTHER;
}

function kindOf(c: number): number {
  const known = kinds[c]!;
  if (known !== 0) return known;
  const kind = c < 128 ? asciiKind(c) : otherKind(c);
  kinds[c] = kind;
  return kind;
}

/**
 * foldedHash of text[from, to), worked out on the characters themselves: the same hash without the three
 * copies folding makes. A line is wordy when it holds two letters or digits, since no line break is left in
 * a folded line for the `.` between them to stop at.
 */
function lineHash(text: string, from: number, to: number): number | undefined {
  let h = FNV_START;
  let words = 0;
  let started = false;
  let space = false;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    const kind = kindOf(c);
    if (kind === SPACE) {
      space = started;
      continue;
    }
    if (kind === SLOW) return foldedHash(text.slice(from, to));
    if (space) {
      h = fnvStep(h, 32);
      space = false;
    }
    started = true;
    if (kind === WORD) words++;
    h = fnvStep(h, lowered[c]!);
  }
  return words >= 2 ? fnvEnd(h) : undefined;
}

// A line with no space at either end nor two in a row and no other kind of space, as a canonical text's lines
// mostly are (normalisation folds spaces and tabs), folds into its own lower case: its hash is FNV-1a over
// each character lowered, space included, which a loop works out with no branch a character but the line
// end's. Each UTF-16 code unit's fold there, worked out the first time it is met: bit 1 a letter or digit,
// bit 2 the space, bit 4 a character such a line may not hold (another space, one only the plain definition
// folds right); bit 8 says it is known. Another line is hashed by lineHash.
const PLAIN_WORD = 1;
const PLAIN_SPACE = 2;
const NOT_PLAIN = 4;
const KNOWN = 8;
const plainKinds = new Uint8Array(0x10000);

function plainKindOf(c: number): number {
  const kind = kindOf(c);
  // the space is hashed as itself here, where lineHash folds runs of spaces into it
  if (c === 32) lowered[c] = c;
  const plain = KNOWN | (kind === WORD ? PLAIN_WORD : kind === OTHER ? 0 : c === 32 ? PLAIN_SPACE : NOT_PLAIN);
  plainKinds[c] = plain;
  return plain;
}

/** The hashes of the lines of text[from, to] (lineHash of each, undefined ones left out), handed to `add`. */
function lineHashes(text: string, from: number, to: number, add: (h: number) => void): void {
  const part = from === 0 && to === text.length ? text : text.slice(from, to);
  // read from a copy in a typed array (code-units.ts), a quarter faster than charCodeAt(); a line end after the
  // last line ends it
  const codes = codeUnits(part, 1);
  codes[part.length] = 10;
  const base = from;
  let start = from;
  let h = FNV_START | 0;
  let words = 0;
  let odd = 0;
  let previous = PLAIN_SPACE;
  for (let i = from; i <= to; i++) {
    const c = codes[i - base]!;
    if (c === 10) {
      // a space at the line's start met `previous` as it starts; one at its end is left in `previous`
      const hash =
        (odd | previous) & (NOT_PLAIN | PLAIN_SPACE) ? lineHash(text, start, i) : words >= 2 ? fnvEnd(h) : undefined;
      if (hash !== undefined) add(hash);
      start = i + 1;
      h = FNV_START | 0;
      words = 0;
      odd = 0;
      previous = PLAIN_SPACE;
      continue;
    }
    let kind = plainKinds[c]!;
    if (kind === 0) kind = plainKindOf(c);
    odd |= (kind & NOT_PLAIN) | (kind & previous & PLAIN_SPACE);
    previous = kind;
    words += kind & PLAIN_WORD;
    h = Math.imul(h ^ lowered[c]!, FNV_PRIME);
  }
}

/**
 * Hashes of an outcome's distinct lines (from its canonical text, where times, ids and durations are already
 * gone), case and spacing folded. Numbers stay: a count that moved is news.
 */
export function outcomeLines(canonical: string): number[] {
  const seen = new Set<number>();
  const order: number[] = [];
  const add = (h: number) => {
    if (seen.has(h)) return;
    seen.add(h);
    order.push(h);
  };
  // a long output's head and tail say what it adds; its middle (a file read whole, a long log) is not read:
  // cut where lines end, so that no half line reads as a line of its own
  if (canonical.length > 2 * EDGE) {
    const tail = canonical.indexOf('\n', canonical.length - EDGE);
    lineHashes(canonical, 0, Math.max(canonical.lastIndexOf('\n', EDGE), 0), add);
    lineHashes(canonical, tail === -1 ? canonical.length : tail + 1, canonical.length, add);
  } else lineHashes(canonical, 0, canonical.length, add);
  return order.length <= HEAD + TAIL ? order : [...order.slice(0, HEAD), ...order.slice(-TAIL)];
}
