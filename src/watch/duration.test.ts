import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatDuration, parseDuration } from './duration.ts';

describe('durations on the command line', () => {
  const table: [string, number | undefined][] = [
    ['10m', 600_000],
    ['90s', 90_000],
    ['1h30m', 5_400_000],
    ['500ms', 500],
    ['1.5m', 90_000],
    ['45', 45_000],
    ['0', undefined],
    ['0s', undefined],
    ['ten minutes', undefined],
    ['10 m', undefined],
    ['-5m', undefined],
    ['', undefined],
  ];
  for (const [text, ms] of table) it(`"${text}" -> ${ms ?? 'refused'}`, () => assert.equal(parseDuration(text), ms));

  it('says them back the short way', () => {
    assert.deepEqual([600_000, 90_000, 5_400_000, 300, 3_600_000].map(formatDuration), [
      '10m',
      '1m30s',
      '1h30m',
      '300ms',
      '1h',
    ]);
  });
});
