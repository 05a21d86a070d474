import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sketch, similarity } from './sketch.ts';

// sketch and similarity run for every call of a scan, so they take shortcuts (the smallest hashes kept as
// they come, a merge of two sorted sketches). These are the textbook definitions they must agree with exactly.

const K = 48;

function hash32(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return h >>> 0;
}

/** The K smallest distinct hashes of the text's 4-character shingles (of its first 20,000 characters). */
function bottomK(text: string): number[] {
  const t = text.slice(0, 20_000);
  const set = new Set<number>();
  if (t.length <= 4) set.add(hash32(t, 0, t.length));
  for (let i = 0; i + 4 <= t.length; i++) set.add(hash32(t, i, i + 4));
  return [...set].sort((a, b) => a - b).slice(0, K);
}

/** Of the K smallest hashes of the union, the share both sketches hold. */
function jaccard(a: number[], b: number[]): number {
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 1 : 0;
  const union = [...new Set([...a, ...b])].sort((x, y) => x - y).slice(0, K);
  return union.filter((h) => a.includes(h) && b.includes(h)).length / union.length;
}

describe('sketch and similarity', () => {
  it('agree with the textbook bottom-k MinHash on any texts', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (s, t) => {
        assert.deepEqual(sketch(s), bottomK(s));
        assert.equal(similarity(sketch(s), sketch(t)), jaccard(bottomK(s), bottomK(t)));
      }),
      { numRuns: 2000 },
    );
    const long = 'npm test -- --grep "invoice totals" '.repeat(1000);
    assert.deepEqual(sketch(long), bottomK(long));
    fc.assert(
      fc.property(fc.string({ minLength: 2000, maxLength: 25_000 }), (s) => assert.deepEqual(sketch(s), bottomK(s))),
      { numRuns: 40 },
    );
  });

  it('agree on near-identical calls, and on sketches that are not sorted', () => {
    const base = 'grep -rn "parse_args" src/';
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        fc.string({ maxLength: 40 }),
        (s, t) => similarity(sketch(base + s), sketch(base + t)) === jaccard(bottomK(base + s), bottomK(base + t)),
      ),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(
        fc.array(fc.nat(500), { maxLength: 60 }),
        fc.array(fc.nat(500), { maxLength: 60 }),
        (a, b) => similarity(a, b) === jaccard(a, b),
      ),
      { numRuns: 2000 },
    );
  });
});
