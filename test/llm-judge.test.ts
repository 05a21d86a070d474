import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHookAsync } from '../src/hook/run-hook.ts';
import { claude, scratch } from './support/hook-process.ts';

// The optional LLM judge against a fake model endpoint on 127.0.0.1, for both API dialects.

interface Seen {
  path: string;
  headers: IncomingMessage['headers'];
  body: { model: string; messages: { content: string }[] };
}

let server: Server;
let port = 0;
const seen: Seen[] = [];
let reply: (provider: 'anthropic' | 'openai') => { status: number; text: string; delayMs?: number } = () => ({
  status: 200,
  text: '',
});

before(async () => {
  server = createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      seen.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(data) });
      const provider = req.url === '/v1/messages' ? 'anthropic' : 'openai';
      const r = reply(provider);
      const body =
        provider === 'anthropic'
          ? { content: [{ type: 'text', text: r.text }] }
          : { choices: [{ message: { role: 'assistant', content: r.text } }] };
      setTimeout(() => {
        res.writeHead(r.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      }, r.delayMs ?? 0);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
after(() => server.close());

const STUCK =
  '{"stuck": true, "repeating_failed_strategy": true, "progress": 0, "confidence": 0.97, "reason": "the same grep variants keep finding nothing"}';

/** A search, then two variants of another name, all finding nothing: the judge smells something, no floor or stall yet. */
async function smellySession(
  llm: Record<string, unknown>,
  env: Record<string, string> = { TEST_LLM_KEY: 'sk-test-123' },
) {
  const {
    project,
    env: base,
    home,
  } = scratch('enforce', {
    llm: { enabled: true, baseUrl: `http://127.0.0.1:${port}`, apiKeyEnv: 'TEST_LLM_KEY', timeoutMs: 800, ...llm },
  });
  const e = { ...base, ...env };
  const run = (payload: unknown) =>
    runHookAsync({ stdin: JSON.stringify(payload), argv: ['--agent', 'claude'], env: e });
  await run(claude.prompt(project));
  const outs = [];
  for (const p of ['parse_args', 'FloorDiv', 'floor_div'])
    outs.push(await run(claude.post(project, 'Grep', { pattern: p, path: 'src' }, 'No files found')));
  return { outs, home, ledger: () => readFileSync(join(home, 'sessions', 'sess-1.jsonl'), 'utf8') };
}

describe('the optional LLM judge', () => {
  it('is asked only when the signals smell trouble, with the key from the environment, and decides when told to', async () => {
    seen.length = 0;
    reply = () => ({ status: 200, text: STUCK });
    const { outs, ledger } = await smellySession({ decide: true });
    assert.ok(seen.length >= 1 && seen.length <= 2, `asked ${seen.length} times`);
    assert.equal(seen[0]!.path, '/v1/messages');
    assert.equal(seen[0]!.headers['x-api-key'], 'sk-test-123');
    assert.match(seen[0]!.body.messages[0]!.content, /`Grep "FloorDiv" in src`/);
    const nudged = outs.map((o) => o.decision?.action).indexOf('nudge');
    assert.ok(nudged >= 1, `a nudge from the model's verdict: ${outs.map((o) => o.decision?.action)}`);
    assert.ok(outs[nudged]!.decision!.signals.some((s) => s.code === 'LLM_JUDGE'));
    assert.match(JSON.parse(outs[nudged]!.stdout).hookSpecificOutput.additionalContext, /stallguard:/);
    assert.match(ledger(), /"k":"verdict","stuck":true/);
  });

  it('speaks the OpenAI dialect too', async () => {
    seen.length = 0;
    reply = () => ({ status: 200, text: STUCK });
    const { outs } = await smellySession({ decide: true, provider: 'openai' });
    assert.equal(seen[0]!.path, '/v1/chat/completions');
    assert.equal(seen[0]!.headers.authorization, 'Bearer sk-test-123');
    assert.ok(outs.some((o) => o.decision?.action === 'nudge'));
  });

  it('is advisory by default: the verdict is recorded and changes nothing', async () => {
    reply = () => ({ status: 200, text: STUCK });
    const { outs, ledger } = await smellySession({});
    assert.deepEqual(
      outs.map((o) => o.stdout),
      ['', '', ''],
    );
    assert.match(ledger(), /"k":"verdict","stuck":true/);
  });

  const failures: [string, () => { status: number; text: string; delayMs?: number }, Record<string, string>?][] = [
    ['a timeout', () => ({ status: 200, text: STUCK, delayMs: 2000 })],
    ['an error status', () => ({ status: 500, text: 'overloaded' })],
    ['a reply without a verdict', () => ({ status: 200, text: 'I cannot tell.' })],
    ['no key in the environment', () => ({ status: 200, text: STUCK }), {}],
  ];
  for (const [name, r, env] of failures) {
    it(`fails open on ${name}: the calls are allowed, the cause logged`, async () => {
      reply = r;
      const started = Date.now();
      const { outs, home } = await smellySession({ decide: true }, env);
      assert.deepEqual(
        outs.map((o) => o.decision?.action),
        ['allow', 'allow', 'allow'],
      );
      assert.ok(Date.now() - started < 5000);
      assert.match(readFileSync(join(home, 'errors.log'), 'utf8'), /llm/);
    });
  }

  it('is not asked when it is off, whatever the signals say', async () => {
    seen.length = 0;
    const { project, env } = scratch('enforce');
    writeFileSync(
      join(project, '.stallguard.json'),
      JSON.stringify({ mode: 'enforce', llm: { enabled: false, baseUrl: `http://127.0.0.1:${port}` } }),
    );
    for (const p of ['a', 'b', 'c'])
      await runHookAsync({
        stdin: JSON.stringify(claude.post(project, 'Grep', { pattern: p }, 'No files found')),
        argv: [],
        env: { ...env, ANTHROPIC_API_KEY: 'k' },
      });
    assert.equal(seen.length, 0);
  });
});

describe('the optional LLM judge over TLS', () => {
  it('trusts the certificates the installed command kept from NODE_EXTRA_CA_CERTS (STALLGUARD_CA_CERTS), and only then', async (t) => {
    const { mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { execFileSync } = await import('node:child_process');
    const { createServer: createTls } = await import('node:https');
    const dir = mkdtempSync(join(tmpdir(), 'sg-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
    } catch {
      t.skip('openssl is not available to make a test certificate');
      return;
    }
    const tls = createTls(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (req, res) => {
        req.resume();
        req.on('end', () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ content: [{ type: 'text', text: STUCK }] }));
        });
      },
    );
    await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
    const tlsPort = (tls.address() as { port: number }).port;
    try {
      const run = async (extra: Record<string, string>) => {
        const { project, env, home } = scratch('enforce', {
          llm: {
            enabled: true,
            decide: true,
            baseUrl: `https://127.0.0.1:${tlsPort}`,
            apiKeyEnv: 'TEST_LLM_KEY',
            timeoutMs: 2000,
          },
        });
        const e = { ...env, TEST_LLM_KEY: 'k', ...extra };
        await runHookAsync({ stdin: JSON.stringify(claude.prompt(project)), argv: [], env: e });
        const outs = [];
        for (const p of ['parse_args', 'FloorDiv', 'floor_div'])
          outs.push(
            await runHookAsync({
              stdin: JSON.stringify(claude.post(project, 'Grep', { pattern: p, path: 'src' }, 'No files found')),
              argv: [],
              env: e,
            }),
          );
        return { actions: outs.map((o) => o.decision?.action), home };
      };
      const trusted = await run({ STALLGUARD_CA_CERTS: join(dir, 'cert.pem') });
      assert.ok(trusted.actions.includes('nudge'), `with the certificate: ${trusted.actions}`);
      const untrusted = await run({});
      assert.deepEqual(untrusted.actions, ['allow', 'allow', 'allow']);
      assert.match(readFileSync(join(untrusted.home, 'errors.log'), 'utf8'), /llm/);
    } finally {
      tls.close();
    }
  });
});
