import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { LiteralSet } from './literal-set.ts';

// The automaton finds exactly the literals that the text's lower case holds: overlapping ones, ones inside
// others, and where a character outside ASCII lowers to an ASCII letter (the Kelvin sign, İ).

const expected = (literals: readonly string[], text: string) =>
  new Set(literals.flatMap((l, i) => (text.toLowerCase().includes(l) ? [i] : [])));

describe('LiteralSet', () => {
  it('finds what includes() on the lowered text finds, for any literals and any text', () => {
    const letters = fc.constantFrom(...'abkis-_.:/='.split(''));
    const literal = fc.string({ unit: letters, minLength: 1, maxLength: 6 });
    const text = fc.string({
      unit: fc.oneof(letters, fc.constantFrom('A', 'B', 'K', 'I', 'S', '\u212a', '\u0130', 'é', '€', '😀', ' ', '\n')),
      maxLength: 60,
    });
    fc.assert(
      fc.property(fc.uniqueArray(literal, { minLength: 1, maxLength: 12 }), text, (literals, t) => {
        assert.deepEqual(new LiteralSet(literals).found(t), expected(literals, t));
      }),
      { numRuns: 3000 },
    );
  });

  it("tells every place where a literal asked for starts, overlapping ones too, and no other literal's", () => {
    const letters = fc.constantFrom(...'abks-'.split(''));
    const literal = fc.string({ unit: letters, minLength: 1, maxLength: 4 });
    const text = fc.string({ unit: fc.oneof(letters, fc.constantFrom('A', 'K', '\u212a', '€', ' ')), maxLength: 60 });
    fc.assert(
      fc.property(fc.uniqueArray(literal, { minLength: 1, maxLength: 8 }), text, (literals, t) => {
        const placed = literals.flatMap((_, i) => (i % 2 === 0 ? [i] : []));
        const lower = t.toLowerCase();
        const expectedPlaces: number[] = [];
        for (const i of placed)
          for (let at = lower.indexOf(literals[i]!); at !== -1; at = lower.indexOf(literals[i]!, at + 1))
            expectedPlaces.push(at);
        const places: number[] = [];
        const set = new LiteralSet(literals, placed);
        assert.deepEqual(set.found(t, places), expected(literals, t));
        const order = (a: number, b: number) => a - b;
        assert.deepEqual(places.sort(order), expectedPlaces.sort(order));
        // and a second call finds the same: the marks of the first are reset
        assert.deepEqual(set.found(t), expected(literals, t));
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the Kelvin sign as k and İ as i', () => {
    const set = new LiteralSet(['token', 'api', 'pi-']);
    assert.deepEqual(set.found('TO\u212aEN'), new Set([0]));
    assert.deepEqual(set.found('AP\u0130'), new Set([1]));
    assert.deepEqual(set.found('P\u0130-'), new Set(), 'İ lowers to i and a combining dot, so no i- follows');
  });

  it('takes lower-case ASCII literals only', () => {
    assert.throws(() => new LiteralSet(['Token']), /not a lower-case ASCII literal: Token/);
    assert.throws(() => new LiteralSet(['tökén']), /not a lower-case ASCII literal/);
  });
});
