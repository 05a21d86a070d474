// A text's UTF-16 code units, copied into a typed array kept for the next text. A loop reading them there runs
// the same optimised code for every text, where charCodeAt() meets each of V8's kinds of string (flat, sliced,
// concatenated, internalised, one or two bytes a character) and slows down for all of them. The loops that
// read a text character by character (literal-set.ts, novelty.ts) each finish with the copy
// before another is made, so they share one buffer.

let units = new Uint16Array(4096);

/**
 * The code units of `text`, and `tail` more places after them for the caller's sentinels. Valid until the next
 * call; the array may be longer than asked for.
 */
export function codeUnits(text: string, tail = 0): Uint16Array {
  if (units.length < text.length + tail) units = new Uint16Array(Math.max(text.length + tail, units.length * 2));
  Buffer.from(units.buffer, units.byteOffset, text.length * 2).write(text, 'utf16le');
  return units;
}
