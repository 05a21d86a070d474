import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claude, cleanEnv, HOOK, scratch } from './support/hook-process.ts';

// The hook reads stdin synchronously, for speed. A parent that hands it a non-blocking pipe and writes the
// payload only later makes that read fail with EAGAIN; the hook must then wait for the payload, not drop
// the event. Node's own child_process always gives a child blocking stdio, so the parent here is Python,
// which can set the pipe non-blocking before the hook starts.

const PARENT = `
import os, subprocess, sys, time
r, w = os.pipe()
os.set_blocking(r, False)
child = subprocess.Popen([sys.argv[1], sys.argv[2]], stdin=r)
os.close(r)
time.sleep(0.3)
os.write(w, sys.argv[3].encode())
os.close(w)
sys.exit(child.wait())
`;

const python = spawnSync('python3', ['--version']).status === 0;

describe('hook stdin', () => {
  it('waits for a payload written late to a non-blocking stdin, and records it', {
    skip: !python && 'python3 is not installed',
  }, () => {
    const { project, env, home } = scratch('enforce');
    const payload = JSON.stringify(
      claude.post(project, 'Read', { file_path: `${project}/a.ts` }, { type: 'text', file: { content: 'x' } }),
    );
    const r = spawnSync('python3', ['-c', PARENT, process.execPath, HOOK, payload], {
      env: cleanEnv(env),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, '');
    const ledger = readFileSync(join(home, 'sessions', 'sess-1.jsonl'), 'utf8');
    assert.match(ledger, /"short":"Read a\.ts"/);
  });
});
