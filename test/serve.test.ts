import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { claude, cleanEnv, CLI, runCli, runHookProcess, scratch } from './support/hook-process.ts';
import { SEED_RULE } from './support/config.ts';
import { HOOK_ENV } from '../src/core/hook-env.ts';
import { freePort } from './support/free-port.ts';

// `stallguard serve`, the hook as a local server for Claude Code's http hooks, and the command hook that
// stands in for it while it is down.

const FAIL = '> proj@1.0.0 test\n> node test.js\n\nrunning tests\n1 passed, 1 failed';
const children: ChildProcess[] = [];

async function until(what: string, test: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function serve(
  env: Record<string, string>,
  home: string,
  args: string[] = [],
): Promise<{ port: number; child: ChildProcess }> {
  const port = freePort();
  const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port), ...args], {
    env: cleanEnv(env),
    stdio: 'ignore',
  });
  children.push(child);
  await until('serve.pid', () => existsSync(join(home, 'serve.pid')));
  return { port, child };
}

function post(
  port: number,
  body: unknown,
  headers: Record<string, string> = {},
  path = '/stallguard/claude',
  method = 'POST',
): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path, method, headers: { 'content-type': 'application/json', ...headers } },
      (res) => {
        let text = '';
        res.on('data', (b) => (text += b));
        res.on('end', () => done({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', fail);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

describe('stallguard serve', () => {
  after(() => {
    for (const c of children) c.kill();
  });

  it('answers like the command hook, on the same session log, when the two take turns', async () => {
    const { project, env, home } = scratch('enforce', SEED_RULE);
    const { port } = await serve(env, home);
    assert.equal(readFileSync(join(home, 'serve.pid'), 'utf8'), `${children.at(-1)!.pid} ${port}\n`);
    const out: string[] = [];
    for (let i = 0; i < 5; i++) {
      const payload = claude.failure(project, 'npm test', FAIL);
      // calls 1, 3, 5 through the daemon, 2 and 4 through node processes
      const r =
        i % 2 === 0 ? await post(port, payload) : { status: 200, body: runHookProcess(payload, env).stdout.trim() };
      assert.equal(r.status, 200);
      out.push(r.body);
    }
    assert.deepEqual(out.slice(0, 4), ['', '', '', '']);
    assert.match(JSON.parse(out[4]!).hookSpecificOutput.additionalContext, /`Bash npm test` x5 \(same failure\)/);
    const status = JSON.parse(runCli(['status', '--json'], env, project).stdout);
    assert.deepEqual(
      status.sessions.map((s: any) => [s.calls, s.stalls]),
      [[5, 1]],
    );
  });

  it('refuses what a browser or another host name would send, and fails open on garbage', async () => {
    const { project, env, home } = scratch('enforce');
    const { port } = await serve(env, home);
    const payload = claude.failure(project, 'npm test', FAIL);
    assert.equal((await post(port, payload, { origin: 'https://evil.example' })).status, 403);
    assert.equal((await post(port, payload, { host: `evil.example:${port}` })).status, 403);
    assert.equal((await post(port, payload, {}, '/other')).status, 404);
    assert.equal((await post(port, '', {}, '/stallguard/claude', 'GET')).status, 404);
    assert.equal(existsSync(join(home, 'sessions')), false, 'nothing refused was recorded');
    assert.deepEqual(await post(port, 'not json {'), { status: 200, body: '' });
    assert.match(readFileSync(join(home, 'errors.log'), 'utf8'), /hook: stdin is not JSON/);
  });

  it('answers in the environment of the hook that sent the event, and refuses one of another STALLGUARD_HOME', async () => {
    const { project, env, home } = scratch('shadow', SEED_RULE);
    const { port } = await serve(env, home);
    const as = (extra: Record<string, string>) =>
      Object.fromEntries(
        HOOK_ENV.map((n) => [`x-stallguard-env-${n.toLowerCase()}`, { ...env, ...extra }[n as keyof typeof env] ?? '']),
      );
    const failure = claude.failure(project, 'npm test', FAIL);
    // the project says shadow; the hook's environment, sent by Claude Code's interpolated headers, says enforce
    const said: string[] = [];
    for (let i = 0; i < 5; i++) said.push((await post(port, failure, as({ STALLGUARD_MODE: 'enforce' }))).body);
    assert.match(said[4]!, /additionalContext/);
    assert.deepEqual(await post(port, failure, as({ STALLGUARD_MODE: '' })), { status: 200, body: '' });
    const other = await post(port, failure, as({ STALLGUARD_HOME: join(home, 'elsewhere') }));
    assert.deepEqual(other, { status: 421, body: '' });
  });

  it('goes when its STALLGUARD_HOME is removed, answering what comes 503', async () => {
    const { project, env, home } = scratch('enforce');
    const { port, child } = await serve(env, home);
    rmSync(home, { recursive: true, force: true });
    assert.equal((await post(port, claude.failure(project, 'npm test', FAIL))).status, 503);
    await until('the daemon to exit', () => child.exitCode !== null);
    assert.equal(existsSync(home), false, 'nothing of it made again');
  });

  it('stops on --stop and after its idle time, and takes its file with it', async () => {
    const a = scratch();
    await serve(a.env, a.home);
    assert.match(runCli(['serve', '--stop'], a.env).stdout, /stopped the server on port \d+/);
    await until('serve.pid to go', () => !existsSync(join(a.home, 'serve.pid')));
    const b = scratch();
    const { child } = await serve(b.env, b.home, ['--idle', '0.01']);
    await new Promise((done) => child.once('exit', done));
    assert.equal(existsSync(join(b.home, 'serve.pid')), false);
  });

  it('stays past its idle time while a Claude Code turn is open, and goes once the turn has ended', async () => {
    const { env, home, project } = scratch();
    const { port, child } = await serve(env, home, ['--idle', '0.01']);
    assert.equal((await post(port, claude.prompt(project))).status, 200);
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(child.exitCode, null, 'up in the middle of the turn, 2.5 idle times later');
    assert.equal((await post(port, { ...claude.base(project), hook_event_name: 'Stop' })).status, 200);
    await until('the daemon to exit', () => child.exitCode !== null);
    assert.equal(existsSync(join(home, 'serve.pid')), false);
  });

  it('says where it listens, and when one already runs, says so instead of starting another', async () => {
    const { env, home } = scratch();
    const port = freePort();
    const child = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], {
      env: cleanEnv(env),
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    children.push(child);
    const first = await new Promise<string>((done) => child.stdout!.once('data', (d) => done(String(d))));
    assert.match(
      first,
      new RegExp(
        `^stallguard serve: listening on http://127\\.0\\.0\\.1:${port}/stallguard/ \\(pid ${child.pid}\\) for ${home}; it exits after 30 idle minutes, or on: stallguard serve --stop\n$`,
      ),
    );
    const again = runCli(['serve', '--port', String(port)], env);
    assert.equal(again.status, 0);
    assert.equal(
      again.stdout,
      `stallguard serve: already running for ${home} on port ${port} (pid ${child.pid}); stop it with: stallguard serve --stop\n`,
    );
    const other = runCli(['serve', '--port', String(port + 1)], env);
    assert.equal(other.status, 1);
    assert.equal(
      other.stderr,
      `stallguard serve: already running for ${home} on port ${port} (pid ${child.pid}), not ${port + 1}; one serves each STALLGUARD_HOME: stop it first with stallguard serve --stop\n`,
    );
    child.kill();
  });

  it('says clearly that a port is taken by another program', async () => {
    const { env } = scratch();
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    const r = runCli(['serve', '--port', String((taken.address() as { port: number }).port)], env);
    taken.close();
    assert.equal(r.status, 1);
    assert.match(
      r.stderr,
      /^stallguard serve: port \d+ on 127\.0\.0\.1 is taken by another program; pick another with: stallguard install --port N\n$/,
    );
  });
});

describe('the daemon install', () => {
  it('runs the hook and starts the daemon while it is down, and stands aside once it is up', async () => {
    const { project, env, home } = scratch('enforce');
    const port = freePort();
    runCli(['install', '--daemon', '--port', String(port)], env, project);
    const settings = readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8');
    const hooks = JSON.parse(settings).hooks;
    // the events that follow a call go to the http hook alone: the command of the call's PreToolUse started the daemon
    assert.deepEqual(
      hooks.PostToolUseFailure[0].hooks.map((h: { type: string }) => h.type),
      ['http'],
    );
    const command = hooks.PreToolUse[0].hooks[1].command as string;
    const run = () =>
      spawnSync('sh', ['-c', command], {
        input: JSON.stringify(claude.failure(project, 'npm test', FAIL)),
        env: cleanEnv(env),
        encoding: 'utf8',
      });
    assert.equal(run().status, 0);
    const ledger = join(home, 'sessions', 'sess-1.jsonl');
    assert.equal(
      readFileSync(ledger, 'utf8')
        .split('\n')
        .filter((l) => l.includes('"t":"o"')).length,
      1,
      'the command hook recorded the call',
    );
    await until('the daemon to start', () => existsSync(join(home, 'serve.pid')));
    const pid = Number(readFileSync(join(home, 'serve.pid'), 'utf8').split(' ')[0]);
    try {
      assert.equal(run().status, 0);
      assert.equal(
        readFileSync(ledger, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"t":"o"')).length,
        1,
        'with the daemon up, the command leaves the call to it',
      );
      assert.equal((await post(port, claude.failure(project, 'npm test', FAIL))).status, 200);
      assert.equal(
        readFileSync(ledger, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"t":"o"')).length,
        2,
      );
    } finally {
      process.kill(pid);
    }
  });
});
