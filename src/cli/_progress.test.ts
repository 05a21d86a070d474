import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Progress, progressLine } from './_progress.ts';

describe('the scan progress bar', () => {
  it('shows the share read, the sessions done and the speed', () => {
    assert.equal(progressLine(50e6, 100e6, 3, 10, 2000, 10), 'scanning █████░░░░░ 50%  3/10 sessions  25.0 MB/s');
    assert.equal(progressLine(0, 0, 0, 0, 0, 4), 'scanning ████ 100%  0/0 sessions  0.0 MB/s');
  });

  it('stays off the screen for a scan shorter than a second, then draws at most every tenth of a second', () => {
    let clock = 0;
    const written: string[] = [];
    const p = new Progress(100e6, 4, { write: (s: string) => written.push(s) > 0 }, () => clock);
    p.bytes(10e6);
    clock = 900;
    p.file();
    p.clear();
    assert.deepEqual(written, [], 'nothing drawn, nothing cleared');
    clock = 1000;
    p.bytes(40e6);
    clock = 1050;
    p.bytes(10e6);
    assert.deepEqual(written, ['\r\x1b[2Kscanning ████████████░░░░░░░░░░░░ 50%  1/4 sessions  50.0 MB/s']);
    p.clear();
    assert.equal(written.at(-1), '\r\x1b[2K', 'cleared for a line to be printed');
  });
});
