// Regular expressions too long for one line, written a part a line: each part is a regex literal (so it keeps
// the escapes a reader knows) and the expression is made of their sources end to end, the same pattern the one
// literal would have been. Their flags are not read: the flags of the whole are given once.

/** Alternatives as one expression, `a|b|c`; each part holds one or more of them. */
export function either(flags: string, ...alternatives: RegExp[]): RegExp {
  return new RegExp(alternatives.map((a) => a.source).join('|'), flags);
}

/** Alternatives as a group to go into a longer expression, `(?:a|b|c)`. */
export function anyOf(...alternatives: RegExp[]): string {
  return `(?:${alternatives.map((a) => a.source).join('|')})`;
}

/** One expression from its parts end to end: regex literals (their source) and pattern text. */
export function regex(flags: string, ...parts: (RegExp | string)[]): RegExp {
  return new RegExp(parts.map((p) => (typeof p === 'string' ? p : p.source)).join(''), flags);
}
