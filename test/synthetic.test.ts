import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CASES } from './synthetic/cases.ts';
import { runCase } from './synthetic/run.ts';

describe('the synthetic suite: labeled Claude Code sessions', () => {
  it('has at least 60 cases, with unique ids', () => {
    assert.ok(CASES.length >= 60, `${CASES.length} cases`);
    assert.equal(new Set(CASES.map((c) => c.id)).size, CASES.length);
  });
  for (const c of CASES) {
    it(`${c.id}: ${c.name}`, () => {
      const { timeline, right } = runCase(c);
      assert.ok(right, `stallguard did "${timeline}", expected ${c.expect}`);
    });
  }
});
