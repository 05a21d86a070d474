import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOOPING_NPM_TEST } from './support/codex-scripts.ts';
import { ensureCodex } from './support/codex-session.ts';
import { type ResponsesRequest, startFakeOpenAI, textOf } from './support/fake-openai.ts';
import { packageCopy, pluginEnv, sessionFilesUnder } from './support/packaged.ts';
import { checkScratch, makeScratch, readRequests, runClient } from './support/scratch.ts';

const cx = ensureCodex();

test(`${cx.label}: the packaged plugin installs from its marketplace, stops a looping npm test, and keeps its state in the plugin data folder`, {
  timeout: 180_000,
}, async () => {
  const scratch = makeScratch('codex-plugin', 'enforce');
  const pkg = packageCopy(scratch);
  const codexHome = join(scratch.home, '.codex');
  mkdirSync(codexHome);
  const env = pluginEnv(scratch, { CODEX_HOME: codexHome, FAKE_OPENAI_KEY: 'sk-e2e-test' });
  const codex = (...args: string[]) =>
    execFileSync(cx.command, [...cx.prefix, ...args], {
      cwd: scratch.root,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  assert.match(codex('plugin', 'marketplace', 'add', pkg), /Added marketplace `stallguard`/);
  assert.match(codex('plugin', 'add', 'stallguard@stallguard'), /Added plugin `stallguard`/);
  const server = await startFakeOpenAI(LOOPING_NPM_TEST, scratch.requestsLog);
  const config = join(codexHome, 'config.toml');
  const plugins = readFileSync(config, 'utf8');
  writeFileSync(
    config,
    [
      'model = "gpt-fake"',
      'model_provider = "fake"',
      'approval_policy = "never"',
      'sandbox_mode = "danger-full-access"',
      plugins,
    ].join('\n'),
  );
  appendFileSync(
    config,
    [
      '',
      '[model_providers.fake]',
      'name = "fake"',
      `base_url = "${server.url}/v1"`,
      'env_key = "FAKE_OPENAI_KEY"',
      'wire_api = "responses"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  );
  const run = await runClient(
    scratch,
    cx,
    [
      ...cx.prefix,
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--dangerously-bypass-hook-trust',
      'fix the failing tests',
    ],
    { env, server },
  );
  await checkScratch(scratch, () => {
    const input = readRequests<{ body?: ResponsesRequest }>(scratch).at(-1)?.body?.input ?? [];
    const outputs = input.filter((i) => i.type === 'function_call_output').map((i) => String(i.output));
    console.log(
      `${cx.label}: plugin stopped the loop (${outputs.length} calls, ${outputs.filter((o) => o.startsWith('Command blocked')).length} denied)`,
    );
    assert.equal(run.code, 0);
    assert.ok(
      input.some((i) => i.type === 'message' && i.role === 'developer' && textOf(i).startsWith('stallguard:')),
      'a nudge',
    );
    assert.ok(
      outputs.some((o) => /^stallguard stopped this agent for the person \(stall: `Bash npm test` x\d/.test(o)),
      'a stop',
    );
    assert.match(outputs.at(-1)!, /^Command blocked by PreToolUse hook: stallguard stopped this agent/);
    const ledgers = sessionFilesUnder(join(codexHome, 'plugins', 'data'));
    assert.equal(ledgers.length, 1, ledgers.join(', '));
    assert.equal(existsSync(join(scratch.home, '.stallguard')), false);
  });
});
