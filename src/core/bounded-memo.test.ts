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

  it('finds a long key by its content, not by the string it is, among keys that share its length and samples', () => {
    const memo = boundedMemo<number>(1 << 20, 64 * 1024);
    const base = 'x'.repeat(1000);
    const keys = [base, `${base.slice(0, 500)}y${base.slice(501)}`, `${base.slice(0, 999)}z`, 'y'.repeat(1000)];
    for (const [i, k] of keys.entries()) memo.set(k, i);
    for (const [i, k] of keys.entries()) assert.equal(memo.get([...k].join('')), i);
    assert.equal(memo.get(`${base.slice(0, 3)}w${base.slice(4)}`), undefined);
    memo.set(base, 9);
    assert.equal(memo.get(base), 9);
    assert.equal(memo.get('x'.repeat(999)), undefined);
  });

  it('forgets long keys with the others once past the bound', () => {
    const memo = boundedMemo<number>(1000, 1000);
    memo.set('a'.repeat(600), 1);
    memo.set('b', 2);
    memo.set('c'.repeat(600), 3);
    assert.deepEqual([memo.get('a'.repeat(600)), memo.get('b'), memo.get('c'.repeat(600))], [undefined, undefined, 3]);
  });
});
