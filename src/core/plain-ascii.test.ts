import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wordy } from './novelty.ts';
import { lettersAndDigits } from './plain-ascii.ts';

// The ASCII way round \p{L} and \p{N} must come out as the Unicode classes do, for ASCII texts and others.

const texts = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }));

describe('letters and digits, the ASCII way and the Unicode one', () => {
  it('lettersAndDigits keeps what [\\p{L}\\p{N}] keeps', () => {
    fc.assert(fc.property(texts, (s) => assert.equal(lettersAndDigits(s), s.replace(/[^\p{L}\p{N}]+/gu, ''))));
    assert.equal(lettersAndDigits('Floor_Div-2 Ünï'), 'FloorDiv2Ünï');
  });

  it('wordy finds two letters or digits where [\\p{L}\\p{N}].*[\\p{L}\\p{N}] does', () => {
    fc.assert(fc.property(texts, (s) => assert.equal(wordy(s), /[\p{L}\p{N}].*[\p{L}\p{N}]/u.test(s))));
    assert.deepEqual(['----', '} )', 'ok', 'é1', 'a\nb'].map(wordy), [false, false, true, true, false]);
  });
});
