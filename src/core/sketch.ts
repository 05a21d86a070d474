// A bottom-k MinHash sketch of a text's 4-character shingles: two sketches estimate how similar two
// texts are (Jaccard) without storing either text, so near-duplicate calls can be recognised from the
// ledger alone. Small texts keep all their shingles and compare exactly.

const K = 48;
const SHINGLE = 4;
const MAX_CHARS = 20_000;

/** FNV-1a's start: hashText is FNV_START, fnvStep for each UTF-16 code unit, then fnvEnd. */
export const FNV_START = 0x811c9dc5;
export const FNV_PRIME = 0x01000193;

export function fnvStep(h: number, code: number): number {
  return Math.imul(h ^ code, FNV_PRIME);
}

/** The final avalanche, so that neighbouring shingles spread over the whole range. */
export function fnvEnd(h: number): number {
  let x = h ^ (h >>> 16);
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  return x >>> 0;
}

function hash32(s: string, from: number, to: number): number {
  let h = FNV_START;
  for (let i = from; i < to; i++) h = fnvStep(h, s.charCodeAt(i));
  return fnvEnd(h);
}

/** A 32-bit hash of a whole text (FNV-1a with a final mix): cheap, stable across processes and versions of node. */
export function hashText(text: string): number {
  return hash32(text, 0, text.length);
}

export function sketch(text: string): number[] {
  const t = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  if (t.length <= SHINGLE) return [hash32(t, 0, t.length)];
  // the K smallest distinct hashes, kept in order as they come, not all of them sorted: once K are kept,
  // nearly every later hash is larger than the largest kept and costs one comparison
  const best: number[] = [];
  for (let i = 0; i + SHINGLE <= t.length; i++) {
    const h = hash32(t, i, i + SHINGLE);
    const n = best.length;
    if (n === K && h >= best[K - 1]!) continue;
    let lo = 0;
    let hi = n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (best[mid]! < h) lo = mid + 1;
      else hi = mid;
    }
    if (best[lo] === h) continue;
    best.splice(lo, 0, h);
    if (best.length > K) best.pop();
  }
  return best;
}

function ascending(list: readonly number[]): readonly number[] {
  for (let i = 1; i < list.length; i++) if (!(list[i - 1]! < list[i]!)) return [...new Set(list)].sort((x, y) => x - y);
  return list;
}

/** Estimated Jaccard similarity of the two texts behind the sketches, in [0, 1]. */
export function similarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  // the K smallest hashes of the union, walked in order as a merge of the two sorted sketches, counting
  // those both sketches hold
  const x = ascending(a);
  const y = ascending(b);
  let i = 0;
  let j = 0;
  let union = 0;
  let both = 0;
  while (union < K && (i < x.length || j < y.length)) {
    if (j >= y.length || (i < x.length && x[i]! < y[j]!)) i++;
    else if (i >= x.length || y[j]! < x[i]!) j++;
    else {
      i++;
      j++;
      both++;
    }
    union++;
  }
  return both / union;
}
