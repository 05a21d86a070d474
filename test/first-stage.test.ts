import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, resolve } from 'node:path';
import { HOOK_ENV } from '../src/core/hook-env.ts';
import { CLI, cleanEnv, HOOK, scratch } from './support/hook-process.ts';
import { freePort } from './support/free-port.ts';

// The bash first stage (dist/hook-client.sh) hands a hook event to the daemon instead of starting node.
// Whatever it prints must be what the node hook prints for the same event in the same state, byte for
// byte: every captured payload of every agent is played in order through both, each into a home of its
// own, in enforce mode, with the repeats that make the hook nudge, deny and stop. Where there is no daemon
// it must leave stdin untouched for the node hook that runs next; past the connection it fails open.

const CLIENT = resolve('dist/hook-client.sh');
const FIXTURES = resolve('test/fixtures/payloads');

async function until(what: string, test: () => boolean, ms = 8000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(FIXTURES, name), 'utf8')) as Record<string, unknown>;

/** Every captured payload of one client, in the order of the capture's file names, with `cwd` moved into the project. */
function captured(prefix: string, project: string): Record<string, unknown>[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.startsWith(`${prefix}-`))
    .sort()
    .map((f) => ({ ...fixture(f), cwd: project }));
}

/** A failing test run, repeated: the stall the hook nudges, then stops; and the call again before it runs, which it denies. */
function looping(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  project: string,
  times = 7,
): Record<string, unknown>[] {
  // a session of its own, after the captured events of theirs (a captured Stop ends their task)
  const at = { cwd: project, session_id: 'looping', sessionId: 'looping' };
  return Array.from({ length: times }, () => [
    { ...before, ...at },
    { ...after, ...at },
  ]).flat();
}

// the shapes Copilot CLI 1.0.102 and Qwen Code 0.24.4 sent (src/adapters/copilot/copilot.test.ts, src/adapters/qwen/qwen.test.ts)
function copilotPayloads(project: string): Record<string, unknown>[] {
  const base = { sessionId: 'cp-1', timestamp: 1_796_123_568_086, cwd: project };
  const pre = { ...base, toolName: 'bash', toolArgs: { command: 'npm test', description: 'run tests' } };
  const failing =
    '> proj@1.0.0 test\n> node test.js\n\nFAIL add(2, 3): expected 5, got -1\n0 passed, 2 failed\n<shellId: 3 completed with exit code 1>';
  const post = { ...pre, toolResult: { resultType: 'success', textResultForLlm: failing } };
  const permission = { hookName: 'permissionRequest', ...base, toolName: 'bash', toolInput: { command: 'npm test' } };
  return [
    { ...base, prompt: 'fix the tests' },
    ...Array.from({ length: 7 }, () => [pre, permission, post]).flat(),
    { ...base, toolName: 'view', toolArgs: { path: `${project}/nope.js` }, error: 'Path does not exist' },
  ];
}

function qwenPayloads(project: string): Record<string, unknown>[] {
  const base = {
    session_id: 'qw-1',
    transcript_path: '/home/dev/.qwen/tmp/qw-1.jsonl',
    cwd: project,
    prompt_id: 'qw-1########1',
  };
  const shell = { tool_name: 'run_shell_command', tool_input: { command: 'npm test', is_background: false } };
  const pre = { ...base, hook_event_name: 'PreToolUse', ...shell };
  const failure = {
    ...base,
    hook_event_name: 'PostToolUseFailure',
    ...shell,
    error: 'Command exited with code 1\n> proj@1.0.0 test\n\nFAIL add(2, 3): expected 5, got -1\n0 passed, 2 failed',
  };
  return [
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: 'fix the tests', submitted_prompt: 'fix the tests' },
    ...looping(pre, failure, project),
    { ...base, hook_event_name: 'PostToolBatch', tool_calls: [] },
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: '' },
  ];
}

interface Run {
  stdout: Buffer;
  status: number | null;
}

function viaNode(agent: string, payload: string, env: Record<string, string>): Run {
  const r = spawnSync(process.execPath, [HOOK, '--agent', agent], { input: payload, env: cleanEnv(env) });
  return { stdout: r.stdout, status: r.status };
}

/** The first stage as the installed command runs it: sourced by the agent's bash, node (here: a marker) after it. */
function viaClient(agent: string, payload: string, env: Record<string, string>): Run {
  const command = `. '${CLIENT}' ${agent} 2>/dev/null || echo ran node`;
  const r = spawnSync('bash', ['-c', command], { input: payload, env: cleanEnv(env) });
  return { stdout: r.stdout, status: r.status };
}

describe('the bash first stage, with the daemon up', () => {
  const node = scratch('enforce');
  const served = scratch('enforce');
  let daemon: ChildProcess;
  before(async () => {
    const port = freePort();
    daemon = spawn(process.execPath, [CLI, 'serve', '--port', String(port)], {
      env: cleanEnv(served.env),
      stdio: 'ignore',
    });
    await until('the daemon', () => existsSync(join(served.home, 'serve.pid')));
  });
  after(() => daemon.kill());

  const cases: [string, string, (project: string) => Record<string, unknown>[]][] = [
    [
      'claude',
      'claude',
      (p) => [
        ...captured('claude', p),
        ...looping(fixture('claude-PreToolUse-Bash.json'), fixture('claude-PostToolUseFailure-Bash.json'), p),
      ],
    ],
    [
      'codex',
      'codex',
      (p) => [
        ...captured('codex', p),
        ...looping(fixture('codex-PreToolUse-Bash.json'), fixture('codex-PostToolUse-Bash.json'), p),
      ],
    ],
    [
      'gemini',
      'gemini',
      (p) => [
        ...captured('gemini', p),
        ...looping(
          fixture('gemini-BeforeTool-run_shell_command.json'),
          fixture('gemini-AfterTool-run_shell_command.json'),
          p,
        ),
      ],
    ],
    ['copilot', 'copilot', copilotPayloads],
    ['qwen', 'qwen', qwenPayloads],
  ];
  for (const [name, agent, payloads] of cases) {
    it(`answers ${name}'s payloads byte for byte as the node hook does, nudges, denials and stops included`, () => {
      // each side's project holds the same config; the payloads name their own project
      const a = payloads(node.project);
      const b = payloads(served.project);
      let said = 0;
      for (let i = 0; i < a.length; i++) {
        const expected = viaNode(agent, JSON.stringify(a[i], null, 2), node.env);
        const got = viaClient(agent, JSON.stringify(b[i], null, 2), served.env);
        assert.equal(got.status, 0, `payload ${i}`);
        assert.equal(expected.status, 0);
        assert.equal(
          got.stdout.toString('utf8').replaceAll(served.project, '<P>'),
          expected.stdout.toString('utf8').replaceAll(node.project, '<P>'),
          `payload ${i} of ${name}`,
        );
        if (expected.stdout.length > 0) said++;
      }
      assert.ok(said >= 2, `the sequence made the hook say something (${said} answers)`);
      assert.equal(existsSync(join(served.home, 'errors.log')), false);
    });
  }

  it("runs in the hook environment it was given, not the daemon's: STALLGUARD_MODE travels with the event", () => {
    const shadow = { ...served.env, STALLGUARD_MODE: 'shadow' };
    const failure = JSON.stringify({ ...fixture('codex-PostToolUse-Bash.json'), session_id: 'mode-1' });
    for (let i = 0; i < 7; i++) assert.equal(viaClient('codex', failure, shadow).stdout.length, 0);
    const enforced = { ...served.env, STALLGUARD_MODE: 'enforce' };
    assert.match(viaClient('codex', failure, enforced).stdout.toString(), /"continue":false/);
  });

  it('sends the length of a payload in bytes, whatever its characters', () => {
    const payload = JSON.stringify({
      ...fixture('codex-PostToolUse-Bash.json'),
      tool_response: 'ünïcødé ✓ 漢字 🙂\n'.repeat(50),
    });
    assert.deepEqual(viaClient('codex', payload, served.env), viaNode('codex', payload, node.env));
    assert.equal(existsSync(join(served.home, 'errors.log')), false);
  });

  it('sends every variable the daemon reads from the hook environment', () => {
    const script = readFileSync(CLIENT, 'utf8');
    const sent = /for name in ([A-Z_ ]+); do/.exec(script)?.[1]?.trim().split(/\s+/);
    assert.deepEqual(sent, [...HOOK_ENV]);
  });

  it('is refused by the daemon of another STALLGUARD_HOME (a port two homes share)', () => {
    const other = scratch('enforce');
    mkdirSync(other.home, { recursive: true });
    writeFileSync(join(other.home, 'serve.pid'), readFileSync(join(served.home, 'serve.pid')));
    const r = viaClient('codex', JSON.stringify(fixture('codex-PostToolUse-Bash.json')), other.env);
    assert.deepEqual([r.status, r.stdout.length], [0, 0]);
    assert.match(
      readFileSync(join(other.home, 'errors.log'), 'utf8'),
      /hook: the daemon on port \d+ answered HTTP\/1\.1 421/,
    );
  });
});

describe('the bash first stage, without a daemon to take the event', () => {
  it('exits 1 having read nothing, so that the node hook after it gets the whole payload', () => {
    const { env, home } = scratch('enforce');
    const payload = JSON.stringify(fixture('codex-PostToolUse-Bash.json'));
    const none = spawnSync('bash', ['-c', `. '${CLIENT}' codex 2>/dev/null || cat`], {
      input: payload,
      env: cleanEnv(env),
    });
    assert.equal(none.stdout.toString(), payload, 'no serve.pid');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'serve.pid'), '999999 1\n');
    const dead = spawnSync('bash', ['-c', `. '${CLIENT}' codex 2>/dev/null || cat`], {
      input: payload,
      env: cleanEnv(env),
    });
    assert.equal(dead.stdout.toString(), payload, 'a serve.pid naming no live process');
    writeFileSync(join(home, 'serve.pid'), `${process.pid} 1\n`);
    const closed = spawnSync('bash', ['-c', `. '${CLIENT}' codex 2>/dev/null || cat`], {
      input: payload,
      env: cleanEnv(env),
    });
    assert.equal(closed.stdout.toString(), payload, 'a live process, but nothing listening on its port');
    assert.equal(closed.stderr.toString(), '');
  });

  it('stands aside in a shell that is not bash, and run by itself exits 1 where sourced it returns 1', () => {
    const { env, home } = scratch('enforce');
    mkdirSync(home, { recursive: true });
    writeFileSync(join(home, 'serve.pid'), `${process.pid} 1\n`);
    const payload = JSON.stringify(fixture('codex-PostToolUse-Bash.json'));
    const dash = spawnSync('sh', ['-c', `. '${CLIENT}' codex 2>/dev/null || cat`], {
      input: payload,
      env: cleanEnv(env),
    });
    assert.equal(dash.stdout.toString(), payload);
    const alone = spawnSync('bash', [CLIENT, 'codex'], { input: payload, env: cleanEnv(env) });
    assert.deepEqual([alone.status, alone.stderr.toString()], [1, '']);
  });

  it('steps aside at once with STALLGUARD_MODE=off, as the hook does', () => {
    const { env } = scratch('enforce');
    const r = spawnSync('bash', ['-c', `. '${CLIENT}' codex 2>/dev/null || echo ran node`], {
      input: '{}',
      env: cleanEnv({ ...env, STALLGUARD_MODE: 'off' }),
    });
    assert.deepEqual([r.status, r.stdout.toString()], [0, '']);
  });
});

function runAsync(
  command: string,
  input: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn('bash', ['-c', command], { env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('close', (status) => done({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

describe('the bash first stage, when the daemon misbehaves', () => {
  let server: Server;
  let reply: (res: import('node:http').ServerResponse) => void = () => undefined;
  let port = 0;
  before(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on('end', () => reply(res));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
    port = (server.address() as { port: number }).port;
  });
  after(() => server.close());

  const answers: [string, (res: import('node:http').ServerResponse) => void, RegExp][] = [
    ['an error status', (res) => res.writeHead(500).end('{"continue":false}'), /answered HTTP\/1\.1 500/],
    [
      'an answer cut short',
      (res) => {
        res.writeHead(200, { 'content-length': 40 });
        res.end('{"continue":');
        res.socket?.destroy();
      },
      /sent 12 bytes of an answer of 40 bytes/,
    ],
    ['a connection closed without an answer', (res) => res.socket?.destroy(), /did not answer/],
  ];
  for (const [what, answer, logged] of answers) {
    it(`fails open on ${what}: nothing printed, exit 0, a line in errors.log`, async () => {
      reply = answer;
      const { env, home } = scratch('enforce');
      mkdirSync(home, { recursive: true });
      writeFileSync(join(home, 'serve.pid'), `${process.pid} ${port}\n`);
      // the server answers from this process: the client runs beside it, not in a spawnSync that would block it
      const r = await runAsync(
        `. '${CLIENT}' codex 2>/dev/null || echo ran node`,
        JSON.stringify(fixture('codex-PostToolUse-Bash.json')),
        env,
      );
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, '', '']);
      assert.match(readFileSync(join(home, 'errors.log'), 'utf8'), logged);
    });
  }
});
