import { it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// The bundle, not the sources: a dependency that bundles badly (jsonc-parser's UMD "main") only fails here.

const CLI = resolve('dist', 'cli.js');

it('stallguard hook --help says what the hook is, instead of waiting for a payload', () => {
  const r = spawnSync(process.execPath, [CLI, 'hook', '--help'], { encoding: 'utf8', timeout: 10_000 });
  assert.equal(r.status, 0);
  assert.match(
    r.stdout,
    /^usage: stallguard hook \[--agent claude\|codex\|gemini\|cursor\|copilot[^\]]*\] < payload\.json\n/,
  );
  assert.match(r.stdout, /always exits 0/);
});

it('the built CLI plans an install of the hook', () => {
  const dir = mkdtempSync(join(tmpdir(), 'stallguard-built-cli-'));
  try {
    const env = { PATH: process.env.PATH, HOME: dir, STALLGUARD_HOME: join(dir, 'sg') };
    const out = execFileSync(process.execPath, [CLI, 'install', '--dry-run'], { cwd: dir, env, encoding: 'utf8' });
    assert.match(out, /--- \.claude\/settings\.local\.json \(new file\)/);
    assert.match(out, /dist\/hook\.cjs --agent claude --serve-port \d+ # stallguard/);
    assert.match(out, /"url": "http:\/\/127\.0\.0\.1:\d+\/stallguard\/claude"/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
