// Whether a text holds a run of at least n characters of a class: the one thing a pattern such as
// [0-9a-f]{24,} needs to match at all. Asked before the pattern runs, it skips the pass over a long text
// that holds no such run, looking at about one character in n there (a regular expression looks at each).

/** A set of ASCII characters, for hasRun. */
export function charClass(chars: string): Uint8Array {
  const cls = new Uint8Array(128);
  for (const ch of chars) {
    const c = ch.charCodeAt(0);
    if (c >= 128) throw new Error(`not an ASCII character: ${ch}`);
    cls[c] = 1;
  }
  return cls;
}

export function hasRun(text: string, cls: Uint8Array, n: number): boolean {
  const inClass = (i: number) => {
    const c = text.charCodeAt(i);
    return c < 128 && cls[c] === 1;
  };
  // a run of n that starts at or after `from` covers from + n - 1: where that is not in the class, none
  // starts before it either; where it is, the run around it is walked back to its start
  let from = 0;
  while (from + n <= text.length) {
    const end = from + n - 1;
    if (!inClass(end)) {
      from = end + 1;
      continue;
    }
    let start = end;
    while (start > from && inClass(start - 1)) start--;
    if (start === from) return true;
    from = start;
  }
  return false;
}
