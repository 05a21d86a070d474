import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { checkDaemon } from '../src/doctor/daemon.ts';
import { freePort } from './support/free-port.ts';
import { CLI, cleanEnv, HOOK, runCli, scratch } from './support/hook-process.ts';

// `stallguard doctor` on setups broken in the ways people break them; each finding names its fix.

interface Check {
  area: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  fix?: string;
}

function doctor(env: Record<string, string>, cwd: string): { code: number | null; ok: boolean; checks: Check[] } {
  const r = runCli(['doctor', '--json'], env, cwd);
  assert.equal(r.stderr, '');
  const out = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
  return { code: r.status, ...out };
}

const find = (checks: Check[], area: string, status: string, detail: RegExp) => {
  const c = checks.find((x) => x.area === area && x.status === status && detail.test(x.detail));
  assert.ok(c, `no ${status} ${area} ${detail} in ${JSON.stringify(checks, null, 1)}`);
  return c;
};

function installed(): {
  project: string;
  env: Record<string, string>;
  home: string;
  settings: string;
  port: number;
} {
  const s = scratch('enforce');
  // a port of its own: the default one may be this machine's daemon
  const port = freePort();
  assert.equal(runCli(['install', '--port', String(port)], s.env, s.project).status, 0);
  return { ...s, settings: join(s.project, '.claude', 'settings.local.json'), port };
}

describe('stallguard doctor', () => {
  it('all good after install: the hook registered, runnable, answering a sample call; exit 0', () => {
    const { project, env } = installed();
    const d = doctor(env, project);
    assert.equal(d.ok, true);
    assert.equal(d.code, 0);
    find(d.checks, 'home', 'ok', /is writable/);
    find(d.checks, 'config', 'ok', /^mode enforce \(from .*\.stallguard\.json\)/);
    find(d.checks, 'hooks', 'ok', /Claude Code \(local, .*settings\.local\.json\): installed/);
    find(d.checks, 'hook run', 'ok', new RegExp(`${HOOK.replace(/[.]/g, '\\.')} answers a sample call in \\d+ ms`));
    find(d.checks, 'git', 'ok', /^git version/);
    assert.deepEqual(
      d.checks.filter((c) => c.status !== 'ok'),
      [],
    );
  });

  it('prints one line per finding and its fix for a person', () => {
    const { project, env } = installed();
    const r = runCli(['doctor'], env, project);
    assert.match(r.stdout, /^ {2}ok {4}home {6}\S/m);
    assert.match(r.stdout, /stallguard doctor: all good\n$/);
  });

  const broken: [string, (s: ReturnType<typeof installed>) => void, RegExp, RegExp][] = [
    [
      'the node the hook command names is gone',
      (s) => editSettings(s.settings, (t) => t.replaceAll(process.execPath, '/opt/node-18/bin/node')),
      /runs node \(\/opt\/node-18\/bin\/node\), which does not exist/,
      /stallguard install/,
    ],
    [
      'the hook file is gone',
      (s) => editSettings(s.settings, (t) => t.replaceAll(HOOK, '/tmp/old-checkout/dist/hook.cjs')),
      /the hook file \(\/tmp\/old-checkout\/dist\/hook\.cjs\), which does not exist/,
      /stallguard install/,
    ],
    [
      'the settings are not JSON',
      (s) => editSettings(s.settings, (t) => t.replace('{', '{ oops')),
      /is not valid JSON/,
      /fix the file/,
    ],
    [
      'disableAllHooks is on',
      (s) => editSettings(s.settings, (t) => t.replace('{', '{\n  "disableAllHooks": true,')),
      /disableAllHooks is true/,
      /remove "disableAllHooks"/,
    ],
  ];
  for (const [name, breakIt, detail, fix] of broken) {
    it(`fails, exit 1, when ${name}`, () => {
      const s = installed();
      breakIt(s);
      const d = doctor(s.env, s.project);
      assert.equal(d.ok, false);
      assert.equal(d.code, 1);
      assert.match(find(d.checks, 'hooks', 'fail', detail).fix!, fix);
    });
  }

  it('warns when stallguard is registered for only some events', () => {
    const s = installed();
    editSettings(s.settings, (t) => {
      const j = JSON.parse(t);
      delete j.hooks.PostToolBatch;
      return JSON.stringify(j, null, 2);
    });
    assert.match(
      find(doctor(s.env, s.project).checks, 'hooks', 'warn', /only some of the events/).fix!,
      /stallguard install/,
    );
  });

  it('warns when an earlier install left stallguard on PostToolUse, an event a call no longer needs', () => {
    const s = installed();
    assert.equal(
      doctor(s.env, s.project).checks.some((c) => /PostToolUse,|on PostToolUse/.test(c.detail)),
      false,
    );
    editSettings(s.settings, (t) => {
      const j = JSON.parse(t);
      j.hooks.PostToolUse = j.hooks.PostToolBatch;
      return JSON.stringify(j, null, 2);
    });
    const check = find(doctor(s.env, s.project).checks, 'hooks', 'warn', /also registered on PostToolUse/);
    assert.match(check.fix!, /stallguard install/);
  });

  it('warns when nothing is installed, and runs the hook beside the CLI instead', () => {
    const s = scratch();
    const d = doctor(s.env, s.project);
    find(d.checks, 'hooks', 'warn', /not installed for any agent/);
    // ran and recorded the call; past 500 ms on a loaded machine that is a warning, not a failure
    assert.match(
      d.checks.find((c) => c.area === 'hook run' && c.status !== 'fail')!.detail,
      new RegExp(`^\\S+ ${HOOK.replace(/[.]/g, '\\.')} (answers a sample call|took \\d+ ms)`),
    );
  });

  it('shows the latest recent errors from errors.log', () => {
    const { project, env, home } = installed();
    mkdirSync(home, { recursive: true });
    const now = new Date().toISOString();
    writeFileSync(
      join(home, 'errors.log'),
      `2020-01-01T00:00:00.000Z hook: old\n${now} hook: EACCES: permission denied, open '/x'\n${now} config: bad\n`,
    );
    const c = find(doctor(env, project).checks, 'errors', 'warn', /^2 errors in the last 24 hours/);
    assert.match(c.detail, /EACCES/);
    assert.doesNotMatch(c.detail, /old/);
  });

  it('warns about folders and files others can read', () => {
    const { project, env, home } = installed();
    mkdirSync(join(home, 'sessions'), { recursive: true });
    writeFileSync(join(home, 'sessions', 's.jsonl'), '');
    chmodSync(home, 0o755);
    chmodSync(join(home, 'sessions', 's.jsonl'), 0o644);
    const checks = doctor(env, project).checks;
    assert.match(find(checks, 'home', 'warn', /can be read by other users of this machine/).fix!, /^chmod 700 /);
    assert.match(find(checks, 'home', 'warn', /1 session file can be read by other users/).fix!, /^chmod 600 /);
  });

  it('warns about NODE_EXTRA_CA_CERTS on Node 20, unless the installed command clears it', (t) => {
    if (!process.version.startsWith('v20.')) return t.skip(`node ${process.version}: the slow start is Node 20's`);
    const { project, env, settings } = installed();
    const certs = { ...env, NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt' };
    // stallguard install writes a command that clears it on Node 20 (through the shell)
    assert.ok(doctor(certs, project).checks.some((c) => c.area === 'node' && c.status === 'ok'));
    // with nothing installed, the command install would write clears it too: nothing to advise
    const bare = scratch();
    assert.ok(
      doctor({ ...bare.env, NODE_EXTRA_CA_CERTS: certs.NODE_EXTRA_CA_CERTS }, bare.project).checks.some(
        (c) => c.area === 'node' && c.status === 'ok',
      ),
    );
    // a command from before install cleared it: installing again is the fix
    editSettings(settings, (t) =>
      t.replaceAll('STALLGUARD_CA_CERTS=\\"$NODE_EXTRA_CA_CERTS\\" NODE_EXTRA_CA_CERTS= ', ''),
    );
    assert.match(
      find(doctor(certs, project).checks, 'node', 'warn', /NODE_EXTRA_CA_CERTS is set/).fix!,
      /^run stallguard install again/,
    );
  });

  it('a shared install: runs the stallguard on PATH, or fails when there is none, and counts a second install', () => {
    const s = scratch('enforce');
    assert.equal(runCli(['install', '--scope', 'project'], s.env, s.project).status, 0);
    const bin = join(s.dir, 'bin');
    mkdirSync(bin);
    symlinkSync(CLI, join(bin, 'stallguard'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const withIt = doctor({ ...s.env, PATH: `${bin}:/usr/bin:/bin` }, s.project);
    assert.equal(withIt.ok, true, JSON.stringify(withIt.checks, null, 1));
    find(
      withIt.checks,
      'hooks',
      'ok',
      new RegExp(
        `\\(project, .*settings\\.json\\): installed for the whole team, running ${CLI.replace(/[.]/g, '\\.')} from PATH`,
      ),
    );
    // it ran and recorded the call (how fast is the machine's business: a warning past 500 ms)
    assert.match(
      withIt.checks.find((c) => c.area === 'hook run' && c.status !== 'fail')!.detail,
      new RegExp(`^\\S+ ${CLI.replace(/[.]/g, '\\.')} (answers a sample call|took \\d+ ms)`),
    );
    const without = doctor({ ...s.env, PATH: '/usr/bin:/bin' }, s.project);
    assert.equal(without.ok, false);
    assert.match(
      find(without.checks, 'hooks', 'fail', /stallguard is not on PATH here: the hook steps aside/).fix!,
      /npm install -g/,
    );
    runCli(['install'], s.env, s.project);
    find(
      doctor({ ...s.env, PATH: `${bin}:/usr/bin:/bin` }, s.project).checks,
      'hooks',
      'warn',
      /registered in .*settings\.local\.json and .*settings\.json; all of them run, so every call is counted twice/,
    );
  });

  it("warns about this machine's paths in a file git would commit, as older installs wrote them", () => {
    const s = scratch('enforce');
    spawnSync('git', ['init', '-q'], { cwd: s.project });
    assert.equal(runCli(['install'], s.env, s.project).status, 0);
    find(doctor(s.env, s.project).checks, 'hooks', 'ok', /\(local, .*settings\.local\.json\): installed$/);
    assert.equal(
      doctor(s.env, s.project).checks.some((c) => /git would commit/.test(c.detail)),
      false,
      'the personal file is ignored',
    );
    const local = join(s.project, '.claude', 'settings.local.json');
    writeFileSync(join(s.project, '.claude', 'settings.json'), readFileSync(local, 'utf8'));
    runCli(['uninstall', '--scope', 'local'], s.env, s.project);
    const c = find(
      doctor(s.env, s.project).checks,
      'hooks',
      'warn',
      /\(project, .*settings\.json\): the command names this machine's node and hook file, in a file git would commit/,
    );
    assert.match(c.fix!, /^stallguard uninstall --scope project, then stallguard install/);
  });

  it('rejects an unknown flag in one line', () => {
    const r = runCli(['doctor', '--fix'], {}, '/');
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^stallguard doctor: Unknown option '--fix'\n$/);
  });
});

function editSettings(file: string, change: (text: string) => string): void {
  writeFileSync(file, change(readFileSync(file, 'utf8')));
}

describe('stallguard doctor: the daemon', () => {
  it('says the daemon is not running and starts on the next call, then that it runs, on the port the hooks name', async () => {
    const { project, env, home, port } = installed();
    find(
      doctor(env, project).checks,
      'daemon',
      'ok',
      new RegExp(`not running now; the next tool call starts it on port ${port}`),
    );
    const daemon = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], {
      env: cleanEnv(env),
      stdio: 'ignore',
    });
    try {
      await until(() => existsSync(join(home, 'serve.pid')));
      find(
        doctor(env, project).checks,
        'daemon',
        'ok',
        new RegExp(`stallguard serve runs on port ${port} \\(pid ${daemon.pid}\\)`),
      );
    } finally {
      daemon.kill();
    }
  });

  it('warns when another program holds the port, so that every call starts node', async () => {
    const { project, env, port } = installed();
    const taken = createServer().listen(port, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    try {
      const c = find(
        doctor(env, project).checks,
        'daemon',
        'warn',
        new RegExp(`port ${port} on 127\\.0\\.0\\.1 is taken by another program of yours`),
      );
      assert.match(c.fix!, /stallguard install --port N/);
    } finally {
      taken.close();
    }
  });

  it("fails when another user's program holds the port Claude Code's http hook posts to", () => {
    const use = { where: 'Claude Code (local, x)', port: 28999, http: true };
    const [c] = checkDaemon([use], '/nowhere', {}, () => ({ uid: (process.getuid?.() ?? 0) + 1 }));
    assert.equal(c?.status, 'fail');
    assert.match(c!.detail, /held by a program of another user .*Claude Code sends that program every hook payload/);
  });

  it('warns when the first stage of a command hook is missing: every call starts node', () => {
    const { project, env } = scratch('enforce');
    const port = freePort();
    assert.equal(runCli(['install', '--agent', 'codex', '--port', String(port)], env, project).status, 0);
    const file = join(project, '.codex', 'hooks.json');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('hook-client.sh', 'no-such-client.sh'));
    find(
      doctor(env, project).checks,
      'daemon',
      'warn',
      /the first stage .*no-such-client\.sh is missing: every call starts node/,
    );
  });
});

async function until(test: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !test(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(test(), 'timed out');
}
