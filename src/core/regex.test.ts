import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { anyOf, either, regex } from './regex.ts';

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
