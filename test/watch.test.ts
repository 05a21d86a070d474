import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `stallguard watch` around fake agents: small node scripts that talk, go quiet, or leave children behind.

const CLI = join(process.cwd(), 'dist', 'cli.js');

function watch(args: string[], timeout = 15_000) {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  const started = Date.now();
  const r = spawnSync(process.execPath, [CLI, 'watch', ...args], {
    env,
    encoding: 'utf8',
    timeout,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - started };
}

const agent = (code: string) => ['--', process.execPath, '-e', code];

/** Whether a process still runs: a zombie nobody reaped yet (PID 1 in a container may not) has ended. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

describe('stallguard watch', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built' }, () => {
  it('passes output and the exit code through', () => {
    const r = watch([
      '--silence',
      '5s',
      ...agent('console.log("working"); console.error("a warning"); process.exit(3)'),
    ]);
    assert.equal(r.status, 3);
    assert.equal(r.stdout, 'working\n');
    assert.equal(r.stderr, 'a warning\n');
  });

  it('lets an agent run as long as it keeps talking', () => {
    const r = watch([
      '--silence',
      '600ms',
      ...agent(
        'let i = 0; const t = setInterval(() => { console.log(i++); if (i === 12) { clearInterval(t); } }, 100)',
      ),
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim().split('\n').length, 12);
  });

  it('ends a silent agent and everything it started, and fails the run with a clear message', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-watch-'));
    const pidFile = join(dir, 'grandchild.pid');
    const code =
      `const { spawn } = require('node:child_process'); const fs = require('node:fs');` +
      `const g = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });` +
      `fs.writeFileSync(${JSON.stringify(pidFile)}, String(g.pid)); console.log('thinking...'); setInterval(() => {}, 1000);`;
    const r = watch(['--silence', '700ms', ...agent(code)]);
    assert.equal(r.status, 124);
    assert.equal(r.stdout, 'thinking...\n');
    assert.match(
      r.stderr,
      /stallguard watch: no output from ".*" for \d+ms; ended it and everything it started \(exit 124\)/,
    );
    assert.ok(r.ms < 8000, `took ${r.ms} ms`);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    assert.equal(alive(grandchild), false, "the agent's own child was ended too");
  });

  it('ends an agent that ignores SIGTERM, after the grace period', () => {
    const r = watch(['--silence', '300ms', ...agent('process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)')]);
    assert.equal(r.status, 124);
    assert.ok(r.ms > 5000 && r.ms < 12_000, `took ${r.ms} ms`);
  });

  const bad: [string[], number, RegExp][] = [
    [['--silence', 'soon', '--', 'true'], 2, /--silence must be a duration such as 10m/],
    [['--silence', '5m'], 2, /give the agent command after --/],
    [['claude', '-p', 'x'], 2, /give the agent command after --/],
    [['--', 'no-such-agent-xyz'], 127, /cannot run "no-such-agent-xyz": command not found/],
  ];
  for (const [args, status, message] of bad) {
    it(`refuses ${args.join(' ')} with exit ${status} and one line`, () => {
      const r = watch(args);
      assert.equal(r.status, status);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1);
    });
  }
});
