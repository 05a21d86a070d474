import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { CallStep } from '../types.ts';
import { loopForm, loopTools } from './loop-form.ts';

const call = (short: string, tool = short.split(' ')[0]!): CallStep => ({
  k: 'call',
  tool,
  cls: 'other',
  key: `k:${short}`,
  out: 'o',
  ok: true,
  short,
});

describe('a loop in short form', () => {
  it('names one round and how many rounds', () => {
    assert.equal(loopForm(Array.from({ length: 5 }, () => call('Bash npm test'))), '`Bash npm test` x5');
    const edit = call('Edit src/a.ts');
    const test = call('Bash npm test');
    assert.equal(loopForm([edit, test, edit, test, edit, test]), '`Edit src/a.ts` → `Bash npm test` x3');
    assert.deepEqual(loopTools([edit, test, edit]), ['Edit', 'Bash']);
  });

  it('lists the most frequent calls when the calls vary (near-duplicates)', () => {
    const calls = ['Grep foo', 'Grep foo_bar', 'Grep foo', 'Grep fooBar', 'Grep foo'].map((s) => call(s));
    assert.equal(loopForm(calls), '`Grep foo` x3, `Grep foo_bar`, `Grep fooBar`');
  });
});
