import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { boundedMemo } from './bounded-memo.ts';

describe('a bounded memo', () => {
  it('remembers until its keys would pass the bound, then forgets them all at once', () => {
    const memo = boundedMemo<number>(10, 8);
    memo.set('aaaa', 1);
    memo.set('bbbb', 2);
    assert.deepEqual([memo.get('aaaa'), memo.get('bbbb')], [1, 2]);
    memo.set('cccc', 3); // 12 characters: past the bound
    assert.deepEqual([memo.get('aaaa'), memo.get('bbbb'), memo.get('cccc')], [undefined, undefined, 3]);
  });

  it('keeps no key longer than its longest', () => {
    const memo = boundedMemo<number>(100, 8);
    memo.set('a much longer key', 1);
    assert.equal(memo.get('a much longer key'), undefined);
  });
});
