// A bottom-k MinHash sketch of a text's 4-character shingles: two sketches estimate how similar two
// texts are (Jaccard) without storing either text, so near-duplicate calls can be recognised from the
// ledger alone. Small texts keep all their shingles and compare exactly.

const K = 48;
const SHINGLE = 4;
const MAX_CHARS = 20_000;

function hash32(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  // final avalanche so that neighbouring shingles spread over the whole range
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** A 32-bit hash of a whole text (FNV-1a with a final mix): cheap, stable across processes and versions of node. */
export function hashText(text: string): number {
  return hash32(text, 0, text.length);
}

export function sketch(text: string): number[] {
  const t = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  const all = new Uint32Array(t.length <= SHINGLE ? 1 : t.length - SHINGLE + 1);
  if (t.length <= SHINGLE) all[0] = hash32(t, 0, t.length);
  else for (let i = 0; i + SHINGLE <= t.length; i++) all[i] = hash32(t, i, i + SHINGLE);
  all.sort(); // a typed array sorts numerically, and far faster than an array with a comparator
  const out: number[] = [];
  for (let i = 0; i < all.length && out.length < K; i++) if (i === 0 || all[i] !== all[i - 1]) out.push(all[i]!);
  return out;
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
