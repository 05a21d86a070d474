import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { digest } from './digest.ts';

describe('digest', () => {
  it('is 16 hex digits, the same for the same text in any process: the session log holds them', () => {
    // written down once: a change of the function would make every running session forget its calls
    assert.equal(digest(''), '2775df793688dd92');
    assert.equal(digest('Bash\u0000npm test'), '368ee166e63acf3c');
    assert.equal(digest('é€😀 lone \ud800'), 'a6b8b4b7f5be75d2');
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (t) => /^[0-9a-f]{16}$/.test(digest(t))));
  });

  it('tells apart texts that differ in one code unit, anywhere, or only in their length', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 400 }),
        fc.nat(),
        fc.integer({ min: 0, max: 0xffff }),
        (text, at, unit) => {
          const i = at % text.length;
          if (text.charCodeAt(i) === unit) return true;
          return digest(text) !== digest(text.slice(0, i) + String.fromCharCode(unit) + text.slice(i + 1));
        },
      ),
      { numRuns: 2000 },
    );
    assert.notEqual(digest('a'), digest('a\u0000'));
    assert.notEqual(digest(''), digest('\u0000'));
  });

  it('gives a million near-identical texts a million digests (32 bits of strength would collide ~100 times)', () => {
    const seen = new Set<string>();
    const texts = (i: number) => [
      `npm test -- --grep "case ${i}"`,
      `src/invoice/total${i}.ts`,
      `${i}`.split('').reverse().join('') + ' passed',
      `{"command":"curl localhost:${i % 65536}/health","n":${i >> 16}}`,
    ];
    for (let i = 0; i < 250_000; i++) for (const t of texts(i)) seen.add(digest(t));
    assert.equal(seen.size, 1_000_000);
  });

  it('sets each of its bits for about half of all texts', () => {
    const ones = new Array<number>(64).fill(0);
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const d = digest(`line ${i}`);
      for (let b = 0; b < 64; b++) if ((Number.parseInt(d[b >> 2]!, 16) >> (3 - (b & 3))) & 1) ones[b]!++;
    }
    for (const count of ones) assert.ok(Math.abs(count / n - 0.5) < 0.03, `a bit set for ${count} of ${n}`);
  });
});
