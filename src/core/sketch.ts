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

export function sketch(text: string): number[] {
  const t = text.length > MAX_CHARS ? text.slice(0, MAX_CHARS) : text;
  const set = new Set<number>();
  if (t.length <= SHINGLE) set.add(hash32(t, 0, t.length));
  for (let i = 0; i + SHINGLE <= t.length; i++) set.add(hash32(t, i, i + SHINGLE));
  return [...set].sort((a, b) => a - b).slice(0, K);
}

/** Estimated Jaccard similarity of the two texts behind the sketches, in [0, 1]. */
export function similarity(a: readonly number[], b: readonly number[]): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  const union = [...new Set([...a, ...b])].sort((x, y) => x - y).slice(0, K);
  const inA = new Set(a);
  const inB = new Set(b);
  let both = 0;
  for (const h of union) if (inA.has(h) && inB.has(h)) both++;
  return both / union.length;
}
