import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type HintList, HintLists } from './hint-lists.ts';

/** The plain definition: each hint looked for in the text's case, or in its lower case for an i list. */
function plainHeld(lists: readonly HintList[], text: string): boolean[] {
  const lower = text.toLowerCase();
  return lists.map(({ hints, anyCase }) => !hints || hints.some((h) => (anyCase ? lower : text).includes(h)));
}

const LISTS: HintList[] = [
  { hints: ['error', 'fatal'], anyCase: true },
  { hints: ['Error', 'FAIL', 'npm ERR!'], anyCase: false },
  { anyCase: false },
  { hints: ['404', 'Not Found'], anyCase: false },
  { hints: ['\u2717', '×', 'not ok'], anyCase: false },
  { hints: ['Capital', 'k', 'i'], anyCase: true },
  { hints: ['e: ', '* what went wrong:', 'http/'], anyCase: true },
];

const PIECES = ['error', 'ERROR', 'Error', 'fAtAl', 'FAIL', 'fail', 'npm ERR!', 'npm err!', '404', 'not found'];
const OTHERS = [
  'Not Found',
  '\u2717',
  '×',
  'NOT OK',
  'not ok',
  'Capital',
  'capital',
  '\u212a',
  '\u0130',
  'e: ',
  'HTTP/',
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...PIECES, ...OTHERS), fc.string({ maxLength: 4 })), { maxLength: 12 })
  .map((p) => p.join(''));

describe('hint lists', () => {
  it('find what looking for each hint finds, before and after the automaton', () => {
    const cold = new HintLists(LISTS);
    const warm = new HintLists(LISTS, 0);
    fc.assert(
      fc.property(text, (t) => {
        assert.deepEqual(cold.held(t), plainHeld(LISTS, t), t);
        assert.deepEqual(warm.held(t), plainHeld(LISTS, t), t);
      }),
      { numRuns: 5000 },
    );
  });
});
