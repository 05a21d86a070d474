import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { isEmptyResult } from './failure.ts';

// isEmptyResult looks at the first character before it runs its regular expression; that must change nothing.

const EMPTY_RESULT =
  /^(?:<returncode>\d+<\/returncode>\s*)?(?:<output>\s*<\/output>)?\s*$|^(?:No (?:matches|files|results) found\b.*|Found 0 (?:matches|files)\b.*|No matches found for .*|0 results?.*|Your command ran successfully and did not produce any output\.?|\(no output\)|\(Bash completed with no output\))$/is;
const reference = (text: string) => {
  const head = text.trim().slice(0, 300);
  return head.length === 0 || EMPTY_RESULT.test(head.split('\n(Open file:')[0]!.trim());
};

const PIECES = ['', ' ', '\n', '<returncode>0</returncode>', '<output>', '</output>', 'No matches found', 'no files found', 'NO RESULTS FOUND', 'Found 0 matches', 'found 0 files', 'No matches found for x', '0 results', '0 result', 'Your command ran successfully and did not produce any output.', '(no output)', '(Bash completed with no output)', '\n(Open file: a.py)', 'x', 'Error'];

describe('isEmptyResult', () => {
  it('agrees with its regular expression run on every outcome', () => {
    const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 4 })), { maxLength: 6 }).map((p) => p.join(''));
    fc.assert(fc.property(text, (t) => assert.equal(isEmptyResult(t), reference(t))), { numRuns: 5000 });
  });
});
