import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { progressLine } from './_progress.ts';

describe('the scan progress bar', () => {
  it('shows the share read, the sessions done and the speed', () => {
    assert.equal(progressLine(50e6, 100e6, 3, 10, 2000, 10), 'scanning █████░░░░░ 50%  3/10 sessions  25.0 MB/s');
    assert.equal(progressLine(0, 0, 0, 0, 0, 4), 'scanning ████ 100%  0/0 sessions  0.0 MB/s');
  });
});
