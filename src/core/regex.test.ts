import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { anyOf, either, hinted, regex } from './regex.ts';

describe('a regex written a part a line', () => {
  it('is the pattern the one literal would have been', () => {
    const long = regex('i', '^', anyOf(/cat|head/, /tail|less/), /(?: -n \d+)?$/);
    assert.equal(long.source, /^(?:cat|head|tail|less)(?: -n \d+)?$/i.source);
    assert.equal(either('m', /^FAIL\b|npm ERR!/, /\d+ failed/).source, /^FAIL\b|npm ERR!|\d+ failed/m.source);
  });

  it('takes the flags of the whole, never of its parts', () => {
    assert.equal(regex('g', /a/i, /b/m).flags, 'g');
    assert.equal(either('i', /a/g, /b/).flags, 'i');
    assert.equal(either('i', /tail/, /head/).test('HEAD'), true);
  });
});

describe('hinted', () => {
  it('answers as its expression wherever every match holds a hint, with the i flag and without', () => {
    const pieces = fc.constantFrom('Set-', 'set-', 'SET-', 'Content', 'x', ' ', '$a =', '\u212a', '\u0130', 'ſ');
    const text = fc.array(fc.oneof(pieces, fc.string({ maxLength: 3 })), { maxLength: 6 }).map((p) => p.join(''));
    const cases = [
      [/\bSet-Content\b|^\s*\$\w+\s*=/m, ['Set-', '$']],
      [/\bset-content\b|^\s*\$\w+\s*=/im, ['set-', '$']],
    ] as const;
    for (const [re, hints] of cases) {
      const test = hinted(re, hints);
      fc.assert(
        fc.property(text, (t) => test.test(t) === re.test(t)),
        { numRuns: 3000 },
      );
    }
  });
});
