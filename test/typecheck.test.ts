import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

// The tests run through tsx, which strips types without checking them; this checks them, tests and
// benchmarks included, so that a wrong type or an import left unused fails the run like any other test.
describe('the types', () => {
  it('check across src, test, e2e, scripts and bench', () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});
