import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { wordIn, wordSet } from './word-set.ts';

describe('wordSet', () => {
  it('answers as the expression of the same words, with /i and without', () => {
    const words = 'rm mv set-content : . get-childitem';
    const pairs = [
      [wordSet(words, true), /^(?:rm|mv|set-content|:|\.|get-childitem)$/i],
      [wordSet(words), /^(?:rm|mv|set-content|:|\.|get-childitem)$/],
    ] as const;
    const word = fc
      .array(
        fc.oneof(fc.constantFrom('rm', 'RM', 'Mv', 'set-', 'Content', ':', '.', '\u212a', '\u0130', 'ſ'), fc.string()),
        {
          maxLength: 3,
        },
      )
      .map((p) => p.join(''));
    for (const [set, re] of pairs) {
      for (const w of ['rm', 'RM', 'Set-Content', 'get-ChildItem', '', 'rmx', 'r', '.', ':'])
        assert.equal(set.test(w), re.test(w), w);
      fc.assert(
        fc.property(word, (w) => set.test(w) === re.test(w)),
        { numRuns: 2000 },
      );
    }
  });
});

describe('wordIn', () => {
  it('answers as the expression of the same words between word breaks', () => {
    const words = 'write edit sh run_command';
    const re = /(?:^|[_\W])(?:write|edit|sh|run_command)(?:[_\W]|$)/i;
    const name = fc
      .array(
        fc.oneof(
          fc.constantFrom('mcp__', 'write', 'WRITE', 'Edit', 'sh', 'run_command', '_', '-', 'x', '\u212a'),
          fc.string(),
        ),
        {
          maxLength: 4,
        },
      )
      .map((p) => p.join(''));
    const test = wordIn(words);
    for (const n of ['Read', 'mcp__fs__write_file', 'Bash', 'sh', 'shell', 'edits', 'file-edit'])
      assert.equal(test.test(n), re.test(n), n);
    fc.assert(
      fc.property(name, (n) => test.test(n) === re.test(n)),
      { numRuns: 3000 },
    );
  });
});
