// Matching names an agent wrote against the concrete places stallguard protects: a shell glob, and a
// name with parts known only at run time (`"$(dirname x)/settings.json"`) by its known pieces, in order.
// Both compare text character by character, never through a regular expression made from the agent's
// text. Written here rather than taken from picomatch: the hook runs on every tool call, and loading
// picomatch costs more there (about 0.4 ms with the code cache) than matching a glob against a few dozen
// paths is worth; this needs no start-up at all and takes time linear in pattern times path.

/** Alternatives a brace expansion may give before the braces are matched as `*`: it can only match more. */
const MAX_ALTERNATIVES = 64;
/** Longer patterns have their braces matched as `*` rather than expanded. */
const MAX_EXPANDED_LENGTH = 4096;
/** A file or folder name is at most this long on the file systems stallguard runs on. */
const MAX_NAME = 255;
/** More `**` than this in a pattern: the rest of the pattern is matched as one `**`. */
const MAX_GLOBSTARS = 4;

/** The index of the `}` closing the `{` at `open`, and whether a top-level `,` lies between; -1 when unclosed. */
function braceEnd(p: string, open: number): { end: number; commas: number[] } {
  const commas: number[] = [];
  let depth = 0;
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return { end: i, commas };
    else if (c === ',' && depth === 1) commas.push(i);
  }
  return { end: -1, commas };
}

/** Brace expansion, as the shell does it before globbing: `{settings,hooks}.json` is two patterns. */
function expandBraces(p: string, budget = { left: MAX_ALTERNATIVES }): string[] {
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '\\') {
      i++;
      continue;
    }
    if (p[i] !== '{') continue;
    const { end, commas } = braceEnd(p, i);
    if (end === -1) return [p];
    const head = p.slice(0, i);
    const tail = p.slice(end + 1);
    // a sequence ({1..9}) or too many alternatives: any text
    if (commas.length === 0) return p.slice(i + 1, end).includes('..') ? expandBraces(head + '*' + tail, budget) : [p];
    const cuts = [i, ...commas, end];
    const alts = cuts.slice(1).map((c, k) => p.slice(cuts[k]! + 1, c));
    budget.left -= alts.length;
    if (budget.left < 0) return expandBraces(head + '*' + tail, budget);
    return alts.flatMap((a) => expandBraces(head + a + tail, budget));
  }
  return [p];
}

/** Every brace group as `*`, in one pass. */
function bracesAsStars(p: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '\\') {
      if (depth === 0) out += c + (p[i + 1] ?? '');
      i++;
    } else if (c === '{') {
      if (depth++ === 0) out += '*';
    } else if (c === '}' && depth > 0) depth--;
    else if (depth === 0) out += c;
  }
  return depth > 0 ? p : out;
}

type Token = { lit: string } | { any: true } | { star: true } | { set: string[]; negated: boolean };

/**
 * A `[...]` set at `open`: its members (single characters, `a-z`
 * ranges kept as three characters), or undefined when unclosed.
 */
function bracket(p: string, open: number): { token: Token; end: number } | undefined {
  let i = open + 1;
  const negated = p[i] === '!' || p[i] === '^';
  if (negated) i++;
  const members: string[] = [];
  for (let first = true; i < p.length; i++, first = false) {
    let c = p[i]!;
    // a set of more members than there are characters worth telling apart is any character
    if (c === ']' && !first) return { token: members.length > 256 ? { any: true } : { set: members, negated }, end: i };
    if (c === '[' && p[i + 1] === ':') {
      // a character class ([:alpha:]): any character, which can only match more
      const close = p.indexOf(':]', i + 2);
      if (close === -1) return undefined;
      members.push('\u0000-\uffff');
      i = close + 1;
      continue;
    }
    if (c === '\\' && i + 1 < p.length) c = p[++i]!;
    if (p[i + 1] === '-' && p[i + 2] !== undefined && p[i + 2] !== ']') {
      members.push(c + '-' + (p[i + 2] === '\\' ? (p[i + 3] ?? '') : p[i + 2]));
      i += p[i + 2] === '\\' ? 3 : 2;
    } else members.push(c);
  }
  return undefined;
}

/** A segment's tokens, `*` runs folded into one; undefined when it needs more characters than a name can have. */
function tokens(segment: string): Token[] | undefined {
  const out: Token[] = [];
  let width = 0;
  // past the last `]` no `[` can open a set: spares a scan per `[` of `[[[[...`
  const lastClose = segment.lastIndexOf(']');
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') {
      if (!('star' in (out.at(-1) ?? {}))) out.push({ star: true });
      continue;
    }
    if (++width > MAX_NAME) return undefined;
    if (c === '\\' && i + 1 < segment.length) out.push({ lit: segment[++i]! });
    else if (c === '?') out.push({ any: true });
    else if (c === '[' && i < lastClose) {
      const b = bracket(segment, i);
      if (b) out.push(b.token), (i = b.end);
      else out.push({ lit: c });
    } else out.push({ lit: c });
  }
  return out;
}

function one(t: Token, c: string): boolean {
  if ('lit' in t) return t.lit === c;
  if ('any' in t) return true;
  if ('set' in t)
    return t.set.some((m) => (m.length === 3 && m[1] === '-' ? c >= m[0]! && c <= m[2]! : m === c)) !== t.negated;
  return false;
}

/** One folder or file name against one pattern segment: the usual wildcard walk, back to the last `*` on a mismatch. */
function segmentMatches(pattern: Token[], text: string): boolean {
  // the shell's rule: a name starting with a dot is matched only by a pattern starting with a literal dot
  if (text.startsWith('.') && !(pattern[0] && 'lit' in pattern[0] && pattern[0].lit === '.')) return false;
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    const tok = pattern[p];
    if (tok && 'star' in tok) {
      star = p++;
      resume = t;
    } else if (tok && one(tok, text[t]!)) p++, t++;
    else if (star !== -1) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (pattern[p] && 'star' in pattern[p]!) p++;
  return p === pattern.length;
}

function segmentsMatch(pattern: Token[][], raw: string[], text: string[]): boolean {
  // `**` may stand for any number of folders (bash with globstar); without globstar it is `*`, which this includes
  const globstar = raw.indexOf('**');
  if (globstar === -1)
    return pattern.length === text.length && pattern.every((seg, i) => segmentMatches(seg, text[i]!));
  const head = pattern.slice(0, globstar);
  const tail = pattern.slice(globstar + 1);
  const rawTail = raw.slice(globstar + 1);
  if (text.length < head.length + tail.length || !head.every((seg, i) => segmentMatches(seg, text[i]!))) return false;
  for (let skip = head.length; skip <= text.length - tail.length; skip++)
    if (segmentsMatch(tail, rawTail, text.slice(skip))) return true;
  return false;
}

/** Segments of one alternative: runs of `**` folded, and past MAX_GLOBSTARS of them the rest as one `**`. */
function segmentsOf(p: string): string[] {
  const raw: string[] = [];
  let globstars = 0;
  for (const seg of p.split('/')) {
    if (seg === '**') {
      if (raw.at(-1) === '**') continue;
      if (++globstars > MAX_GLOBSTARS) return [...raw, '**'];
    }
    raw.push(seg);
  }
  return raw;
}

/** A matcher for an absolute glob, as the shell reads one. */
export function globMatcher(pattern: string): (path: string) => boolean {
  const expanded = pattern.length > MAX_EXPANDED_LENGTH ? [bracesAsStars(pattern)] : expandBraces(pattern);
  const alternatives: { raw: string[]; segs: Token[][] }[] = [];
  for (const p of expanded) {
    const raw = segmentsOf(p);
    const segs = raw.map(tokens);
    // a segment longer than any name matches nothing
    if (segs.every((s) => s !== undefined)) alternatives.push({ raw, segs: segs as Token[][] });
  }
  return (path) => {
    const text = path.split('/');
    return alternatives.some(({ raw, segs }) => segmentsMatch(segs, raw, text));
  };
}

/** Whether `text` can be `pieces` joined by run-time values of any length. */
export function piecesMatch(pieces: string[], text: string): boolean {
  if (pieces.length === 1) return text === pieces[0];
  const first = pieces[0]!;
  const last = pieces.at(-1)!;
  if (!text.startsWith(first) || text.length < first.length + last.length) return false;
  let at = first.length;
  for (const p of pieces.slice(1, -1)) {
    const i = text.indexOf(p, at);
    if (i === -1) return false;
    at = i + p.length;
  }
  return text.length - last.length >= at && text.endsWith(last);
}
