import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { KNOWN_BLOCKS, outcomeLines, wordy } from './novelty.ts';
import { hashText } from './sketch.ts';

/** The plain definition outcomeLines keeps to: each line folded into a copy, then hashed. */
function plainOutcomeLines(canonical: string): number[] {
  let text = canonical;
  if (canonical.length > 2 * 8192) {
    const head = canonical.lastIndexOf('\n', 8192);
    const tail = canonical.indexOf('\n', canonical.length - 8192);
    text = `${canonical.slice(0, Math.max(head, 0))}\n${canonical.slice(tail === -1 ? canonical.length : tail + 1)}`;
  }
  const order = [
    ...new Set(
      text
        .split('\n')
        .map((raw) => raw.trim().toLowerCase().replace(/\s+/g, ' '))
        .filter(wordy)
        .map(hashText),
    ),
  ];
  return order.length <= 24 ? order : [...order.slice(0, 12), ...order.slice(-12)];
}

describe('the lines an answer holds', () => {
  it('distinct lines with letters or digits, case and spacing folded, in the order they first appear', () => {
    assert.deepEqual(outcomeLines('FAIL  a1\nfail a1\n---\n}\nok b2'), outcomeLines('fail a1\nok b2'));
    assert.equal(outcomeLines('---\n}\n\n').length, 0);
  });

  it('of a short answer, the first twelve and the last twelve distinct lines', () => {
    const lines = outcomeLines(Array.from({ length: 40 }, (_, i) => `line ${i}`).join('\n'));
    assert.deepEqual(lines, [
      ...outcomeLines(Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n')),
      ...outcomeLines(Array.from({ length: 12 }, (_, i) => `line ${i + 28}`).join('\n')),
    ]);
  });

  it('of a long answer, only its head and tail are read: what stands in the middle of a long file is not read', () => {
    const long = (middle: string[]) =>
      ['begins here', ...Array(900).fill('the same start'), ...middle, ...Array(900).fill('the same end')].join('\n');
    const lines = outcomeLines(long(Array.from({ length: 30 }, (_, i) => `middle line ${i}`)));
    assert.deepEqual(lines, outcomeLines('begins here\nthe same start\nthe same end'));
  });

  it('folds every ASCII character as the plain definition does (they are worked out without its expressions)', () => {
    for (let c = 0; c < 128; c++) {
      const ch = String.fromCharCode(c);
      for (const t of [`a${ch}b`, `${ch}x${ch}Y${ch}`, `1 ${ch}\n${ch}${ch}2`])
        assert.deepEqual(outcomeLines(t), plainOutcomeLines(t), JSON.stringify(t));
    }
  });

  it('hashes what folding each line into a copy would hash, whatever the characters and however long the text', () => {
    const unit = fc.constantFrom(
      ...'aZ9 _-.\t\r\n\v\f\u00a0\u2028\ufeffÉéİ\u212a€😀\x00\x7f✓❯─“…•ßſŉ×'.split(''),
      'ab',
      '1 2',
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 80 }), (t) => assert.deepEqual(outcomeLines(t), plainOutcomeLines(t))),
      { numRuns: 5000 },
    );
    const line = fc.string({ unit, maxLength: 40 });
    fc.assert(
      fc.property(fc.array(line, { minLength: 400, maxLength: 1200 }), (lines) => {
        const t = lines.join('\n');
        assert.deepEqual(outcomeLines(t), plainOutcomeLines(t));
      }),
      { numRuns: 60 },
    );
  });
});

describe('the blocks whose kind is known without asking', () => {
  it('hold, each code unit, what the expressions would say: no space, one lowered character, a letter or not', () => {
    for (const [from, to, kind] of KNOWN_BLOCKS)
      for (let c = from; c <= to; c++) {
        const ch = String.fromCharCode(c);
        const low = ch.toLowerCase();
        const what = `U+${c.toString(16)}`;
        assert.equal(/\s/.test(ch), false, what);
        assert.equal(low.length, 1, what);
        assert.equal(/[\p{L}\p{N}]/u.test(low) ? 'word' : 'other', kind, what);
      }
  });

  it('hash the lines of test runners and box drawing as the plain definition does', () => {
    const text = [
      ' ✓ src/a.test.ts > adds 2ms',
      ' ❯ src/b.test.ts:12:5',
      '┌──────┐',
      '│ Café │ → naïve “ok” … • Ünïcödé',
      '└──────┘',
    ].join('\n');
    assert.deepEqual(outcomeLines(text), plainOutcomeLines(text));
  });
});

describe('wordy', () => {
  it('is two letters or digits of any script, whichever way it is asked', () => {
    const line = fc
      .array(
        fc.oneof(
          fc.constantFrom('a', '7', 'é', '\u4e2d', '\u0660', '\ud83d\ude00', '\ud800', '-', ' ', '\u2028', '\r'),
          fc.string(),
        ),
        {
          maxLength: 5,
        },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(line, (l) => wordy(l) === /[\p{L}\p{N}].*[\p{L}\p{N}]/u.test(l)),
      { numRuns: 3000 },
    );
  });
});
