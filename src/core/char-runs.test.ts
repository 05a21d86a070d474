import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { charClass, hasRun } from './char-runs.ts';

// hasRun answers what /[class]{n}/ would, looking at fewer characters.

describe('hasRun', () => {
  it('says whether the text holds n characters of the class in a row, as a regular expression would', () => {
    const HEX = charClass('0123456789abcdef');
    const text = fc.string({ unit: fc.constantFrom('a', 'f', '0', '9', 'g', 'A', ' ', '-', 'é', '😀'), maxLength: 80 });
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 12 }), (t, n) => {
        assert.equal(hasRun(t, HEX, n), new RegExp(`[0-9a-f]{${n}}`).test(t));
      }),
      { numRuns: 5000 },
    );
  });

  it('finds a run at the very start and at the very end', () => {
    const DIGITS = charClass('0123456789');
    assert.equal(hasRun('1234', DIGITS, 4), true);
    assert.equal(hasRun('x1234', DIGITS, 4), true);
    assert.equal(hasRun('1234x', DIGITS, 4), true);
    assert.equal(hasRun('123x4567', DIGITS, 5), false);
    assert.equal(hasRun('', DIGITS, 1), false);
  });

  it('takes ASCII characters only', () => {
    assert.throws(() => charClass('aé'), /not an ASCII character: é/);
  });
});
