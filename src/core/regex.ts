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

/**
 * An expression asked only of texts that hold one of its hints: literals of which its every match holds one
 * (in lower case for an expression with the i flag, which then folds the text's case to look for them). V8
 * compiles each expression anew in every hook process, and most texts hold no hint: those spare it.
 */
export function hinted(re: RegExp, hints: readonly string[]): { test(text: string): boolean } {
  const anyCase = re.flags.includes('i');
  return {
    test: (text) => {
      const t = anyCase ? text.toLowerCase() : text;
      return hints.some((h) => t.includes(h)) && re.test(text);
    },
  };
}
