import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { parseLine } from '../src/store/session-log.ts';
import { CLI, claude, cleanEnv, HOOK, type HookRun, runCli, runHookProcess, scratch } from './support/hook-process.ts';
import { SEED_RULE } from './support/config.ts';

// The hook under the faults a machine really has: a damaged ledger, a home it cannot write, a full disk,
// no git, a repository in the middle of a rebase, a git that hangs. Each time it must let the agent go on
// (exit 0, nothing or one valid response), record the fault where it can, and `stallguard doctor` must
// name the problem and its fix.

const FAIL = '> proj@1.0.0 test\n1 passed, 1 failed';

interface Doctor {
  ok: boolean;
  checks: { area: string; status: string; detail: string; fix?: string }[];
}

function doctor(env: Record<string, string>, cwd: string, as?: number): Doctor {
  const r = spawnSync(process.execPath, [CLI, 'doctor', '--json'], {
    env: cleanEnv(env),
    cwd,
    encoding: 'utf8',
    ...(as !== undefined ? { uid: as, gid: as } : {}),
  });
  assert.equal(r.stderr, '', 'doctor prints its findings, never a stack trace');
  return JSON.parse(r.stdout) as Doctor;
}

function finding(d: Doctor, area: string, status: string, detail: RegExp): Doctor['checks'][number] {
  const c = d.checks.find((x) => x.area === area && x.status === status && detail.test(x.detail));
  assert.ok(c, `no ${status} ${area} matching ${detail} in ${JSON.stringify(d.checks, null, 1)}`);
  return c;
}

function assertAllowedOpen(r: HookRun, what = 'the hook'): void {
  assert.equal(r.status, 0, `${what} exits 0`);
  if (r.stdout.trim()) assert.equal(typeof JSON.parse(r.stdout), 'object');
}

/** Ten identical failing runs, the way Claude Code reports them, with a batch after each; the responses. */
function loop(project: string, env: Record<string, string>, opts: { uid?: number } = {}): string[] {
  const out: string[] = [];
  const send = (payload: unknown) => {
    const r = spawnSync(process.execPath, [HOOK], {
      input: JSON.stringify(payload),
      env: cleanEnv(env),
      encoding: 'utf8',
      timeout: 20_000,
      ...(opts.uid !== undefined ? { uid: opts.uid, gid: opts.uid } : {}),
    });
    assertAllowedOpen({ stdout: r.stdout, stderr: r.stderr, status: r.status });
    return r.stdout;
  };
  send(claude.prompt(project));
  for (let i = 0; i < 10; i++) {
    out.push(send(claude.failure(project, 'npm test', FAIL)));
    send(claude.batch(project));
  }
  return out;
}

const nudged = (out: string[]) =>
  out.map((o) => (o ? (JSON.parse(o).continue === false ? 'stop' : 'nudge') : '-')).join(' ');
/** The same loop in a clean scratch: what every fault that must not change a decision is compared with. */
let clean: string | undefined;
function cleanRun(): string {
  if (clean === undefined) {
    const s = scratch('enforce', SEED_RULE);
    clean = nudged(loop(s.project, s.env));
    assert.match(clean, /nudge.*stop/, 'the loop is nudged, then stopped');
  }
  return clean;
}
const NOTHING = '- - - - - - - - - -';

const mounts: string[] = [];
after(() => {
  for (const m of mounts) spawnSync('umount', ['-l', m]);
});

/** A small tmpfs, where the machine allows it (we run as root in CI); undefined with the reason otherwise. */
function tmpfs(dir: string, options: string): string | undefined {
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir], { encoding: 'utf8' });
  if (r.status !== 0) return `cannot mount a tmpfs here (${(r.stderr || r.error?.message || '').trim()})`;
  mounts.push(dir);
  return undefined;
}

describe('a damaged ledger', () => {
  it('junk, a torn line and a broken checkpoint change no decision; doctor counts the unreadable lines', () => {
    const { project, env, home } = scratch('enforce', SEED_RULE);
    const file = join(home, 'sessions', 'sess-1.jsonl');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      file,
      '\u0000\u0001garbage\nnot json either\n{"t":"c","after":"nothing","s":{"v":1}}\n{"t":"o","id":"torn","o":{"step":{"k":"ca',
    );
    assert.equal(nudged(loop(project, env)), cleanRun());
    finding(doctor(env, project), 'home', 'warn', /sess-1\.jsonl has 2 unreadable lines/);
  });

  it('a folder where the session file should be: every call allowed, each logged; doctor says to move it aside', () => {
    const { project, env, home } = scratch('enforce', SEED_RULE);
    mkdirSync(join(home, 'sessions', 'sess-1.jsonl'), { recursive: true });
    assert.equal(nudged(loop(project, env)), NOTHING);
    assert.match(readFileSync(join(home, 'errors.log'), 'utf8'), /EISDIR/);
    const d = doctor(env, project);
    assert.equal(d.ok, false);
    assert.match(finding(d, 'home', 'fail', /sess-1\.jsonl is not a file/).fix!, /^move it aside: mv /);
    finding(d, 'errors', 'warn', /errors in the last 24 hours/);
  });

  it('broken config files: the valid fields still apply, the problems are logged, doctor lists each with its fix', () => {
    const { project, env, home } = scratch('enforce', { ...SEED_RULE, window: 'big' });
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'config.json'), '{ "mode": "shadow", ');
    assert.equal(nudged(loop(project, env)), cleanRun(), 'still enforcing, from the project file');
    const log = readFileSync(join(home, 'errors.log'), 'utf8');
    assert.match(
      log,
      / config: \S+config\.json is not valid JSON \(.* at line 1, column \d+\); none of its settings apply\n/,
    );
    assert.match(
      log,
      / config: \S+\.stallguard\.json: window is "big", but it must be a whole number from 5 to 200; using 25 instead\n/,
    );
    const d = doctor(env, project);
    finding(d, 'config', 'ok', /^mode enforce/);
    assert.match(finding(d, 'config', 'warn', /config\.json is not valid JSON/).fix!, /^fix \S+config\.json/);
    assert.match(
      finding(d, 'config', 'warn', /window is "big"/).fix!,
      /^edit window in \S+\.stallguard\.json: it must be a whole number from 5 to 200$/,
    );
    // the hook logged them, but they are the person's mistakes, not the hook's: the hook run is no failure
    assert.equal(
      d.checks.some((c) => c.area === 'hook run' && c.status === 'fail'),
      false,
      JSON.stringify(d.checks, null, 1),
    );
  });
});

describe('a STALLGUARD_HOME the hook cannot write', () => {
  it('a file in its place', () => {
    const { project, env, dir } = scratch('enforce', SEED_RULE);
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    const e = { ...env, STALLGUARD_HOME: file };
    assert.equal(nudged(loop(project, e)), NOTHING);
    finding(doctor(e, project), 'home', 'fail', /is not a folder/);
  });

  it("owned by another user (the agent's user may not write it)", () => {
    const { project, env, dir, home } = scratch('enforce', SEED_RULE);
    mkdirSync(home, { mode: 0o700 });
    for (const d of [dir, project, env.HOME!]) chmodSync(d, 0o755);
    assert.equal(nudged(loop(project, env, { uid: 65534 })), NOTHING);
    const d = doctor(env, project, 65534);
    assert.equal(d.ok, false);
    const c = finding(d, 'home', 'fail', /cannot be written: permission denied/);
    assert.match(c.fix!, /make .* writable by this user/);
  });

  it('on a read-only filesystem', (t) => {
    const { project, env, dir } = scratch('enforce', SEED_RULE);
    const ro = join(dir, 'ro');
    const skip = tmpfs(ro, 'ro,size=64k');
    if (skip) return t.skip(skip);
    const e = { ...env, STALLGUARD_HOME: ro };
    assert.equal(nudged(loop(project, e)), NOTHING);
    finding(doctor(e, project), 'home', 'fail', /read-only/);
  });

  it('on a full disk: the calls go through, and once there is room again the ledger is whole', (t) => {
    const { project, env, dir } = scratch('enforce', SEED_RULE);
    const disk = join(dir, 'disk');
    const skip = tmpfs(disk, 'size=64k');
    if (skip) return t.skip(skip);
    const home = join(disk, 'sg');
    const e = { ...env, STALLGUARD_HOME: home };
    runHookProcess(claude.prompt(project), e);
    // fill what is left, to the last byte
    const filler = join(disk, 'filler');
    for (const size of [32768, 4096, 512, 64, 8, 1]) {
      try {
        for (;;) appendFileSync(filler, Buffer.alloc(size));
      } catch {
        /* full at this grain */
      }
    }
    const out = loop(project, e);
    assert.equal(out.length, 10);
    const d = doctor(e, project);
    assert.match(finding(d, 'home', 'fail', /the disk is full/).fix!, /free some space/);

    rmSync(filler);
    for (let i = 0; i < 6; i++)
      assertAllowedOpen(runHookProcess(claude.failure(project, `npm test -- again-${i}`, FAIL), e));
    const lines = readFileSync(join(home, 'sessions', 'sess-1.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    const shorts = lines
      .map(parseLine)
      .filter((l) => l?.t === 'o')
      .map((l) => (l as { o: { step: { short?: string } } }).o.step.short);
    for (let i = 0; i < 6; i++) assert.ok(shorts.includes(`Bash npm test -- again-${i}`), `again-${i} recorded`);
    assert.equal(JSON.parse(runCli(['status', '--json'], e, project).stdout).sessions.length, 1);
  });
});

describe('git', () => {
  it('not on PATH: the hook still detects the loop, quietly; doctor says what is lost', () => {
    const { project, env, home, dir } = scratch('enforce', SEED_RULE);
    // a PATH with node on it and nothing else
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, join(bin, 'node'));
    const e = { ...env, PATH: bin };
    writeFileSync(join(project, '.git'), 'gitdir: /nowhere\n'); // looks like a repository, so the fingerprint is tried
    assert.equal(nudged(loop(project, e)), cleanRun());
    assert.equal(existsSync(join(home, 'errors.log')), false);
    assert.match(finding(doctor(e, project), 'git', 'warn', /git is not on PATH/).fix!, /install git/);
  });

  it('a repository in the middle of a rebase: decisions as usual, the rebase left as it was', () => {
    const { project, env } = scratch('enforce', SEED_RULE);
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd: project, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    writeFileSync(join(project, 'a.txt'), 'base\n');
    git('add', '-A');
    git('commit', '-qm', 'base');
    git('checkout', '-qb', 'topic');
    writeFileSync(join(project, 'a.txt'), 'topic\n');
    git('commit', '-qam', 'topic');
    git('checkout', '-q', 'main');
    writeFileSync(join(project, 'a.txt'), 'main\n');
    git('commit', '-qam', 'main');
    git('checkout', '-q', 'topic');
    assert.notEqual(git('rebase', 'main').status, 0, 'the rebase stops on its conflict');
    // an unchanged tree may be seen as such, and the loop flagged sooner: nudged, then stopped, is the point
    assert.match(nudged(loop(project, env)), /^[- ]*nudge.*stop$/);
    assert.equal(existsSync(join(project, '.git', 'index.lock')), false);
    assert.match(git('status').stdout, /rebase in progress/);
    assert.equal(git('rebase', '--abort').status, 0);
  });

  it('a git that hangs: the hook answers once its timeout kills it', () => {
    const { project, env, dir } = scratch('enforce', SEED_RULE);
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'git'), '#!/bin/sh\nsleep 60\n', { mode: 0o755 });
    mkdirSync(join(project, '.git'));
    const start = Date.now();
    const r = runHookProcess(claude.failure(project, 'npm test', FAIL), {
      ...env,
      PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`,
    });
    assertAllowedOpen(r);
    assert.ok(Date.now() - start < 15_000, `answered after ${Date.now() - start} ms`);
  });
});
