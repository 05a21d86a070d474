import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

// The examples run as a reader would run them: `node examples/<file>`, importing the built package by name.

describe('examples', { skip: existsSync('dist/index.js') ? false : 'dist is not built' }, () => {
  it('custom-agent-loop.mjs: the agent that opens door A, then door B, and sees the same room each time is nudged, then stopped', () => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    delete env.NODE_EXTRA_CA_CERTS;
    const r = spawnSync(process.execPath, ['examples/custom-agent-loop.mjs'], { env, encoding: 'utf8', timeout: 10_000 });
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trim().split('\n');
    assert.match(lines[0]!, /^turn \d+: nudged: stallguard: .*`open_door [AB]` → `open_door [AB]` x\d \(same results each round\)/);
    assert.match(lines.at(-1)!, /^turn \d+: stopped for the person: stall: `open_door [AB]` → `open_door [AB]` x\d \(same results each round\), twice in this task$/);
    assert.ok(lines.slice(1, -1).every((l) => /^turn \d+: refused: /.test(l)), r.stdout);
  });
});
