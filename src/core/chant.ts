// An agent that chants: the same sentence over and over in one message ("I will now mark the task as
// complete." x15). Lists, tables, headings and code are structure, not chanting, and are left out, as
// Gemini CLI's content-loop detector does (see ../shared/reference/peer-detectors.md, B1).

/** A list item, a table row, a heading, a quote, a rule of -=_* or of ─━╭╮╰╯│ (escaped: scripts/build.mjs). */
const STRUCTURE = /^\s*(?:[-*+]\s|\d+[.)]\s|\||#{1,6}\s|>|[-=_*\u2500\u2501\u256d\u256e\u2570\u256f\u2502]{3,})/;
const MIN_SENTENCE = 12;

/** How many times the most repeated sentence of a message occurs (0 when none repeats). */
export function chantCount(text: string): number {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, '\n');
  const counts = new Map<string, number>();
  let best = 0;
  for (const line of prose.split('\n')) {
    if (STRUCTURE.test(line)) continue;
    for (const raw of line.split(/(?<=[.!?\u2026])\s+/)) {
      // after . ! ? or …
      const sentence = raw.trim().toLowerCase().replace(/\s+/g, ' ');
      if (sentence.length < MIN_SENTENCE) continue;
      const n = (counts.get(sentence) ?? 0) + 1;
      counts.set(sentence, n);
      if (n > best) best = n;
    }
  }
  return best > 1 ? best : 0;
}
