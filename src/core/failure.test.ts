import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lastLines, plainLine } from './failure.ts';

// A failure's lines are compared without case and punctuation. An ASCII line takes a short way round the
// Unicode classes, which cost a hook process milliseconds to compile: it must come out as the long way does.

const definition = (line: string) =>
  line
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('plainLine', () => {
  it('is the Unicode definition, for ASCII lines and any others', () => {
    fc.assert(fc.property(fc.string(), (s) => assert.equal(plainLine(s), definition(s))));
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => assert.equal(plainLine(s), definition(s))));
    for (const s of ['FAIL add(2, 3): expected 5, got -1', 'Échec: 2 tests', 'İstanbul\u00a0x', 'tab\there'])
      assert.equal(plainLine(s), definition(s));
  });
});

describe('lastLines', () => {
  it('gives the last lines with more than spaces, trimmed, as splitting the whole text would', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '\u00a0');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (t, n) => {
        const all = t
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        assert.deepEqual(lastLines(t, n), all.slice(-n));
      }),
      { numRuns: 3000 },
    );
  });
});
