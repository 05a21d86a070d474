import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { actionCounts } from './format.ts';

describe('actionCounts', () => {
  it('counts interventions in words a person reads: a deny is a denial', () => {
    assert.equal(actionCounts({ nudge: 62, deny: 12, stop: 6 }), '62 nudges, 12 denials, 6 stops');
    assert.equal(actionCounts({ nudge: 1, deny: 1 }), '1 nudge, 1 denial');
  });
});
