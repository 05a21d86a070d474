import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startFakeGemini } from './support/fake-gemini.ts';
import { LOOPING_NPM_TEST } from './support/gemini-scripts.ts';
import { ensureGemini } from './support/gemini-session.ts';
import { packageCopy, pluginEnv, sessionFilesUnder } from './support/packaged.ts';
import { checkScratch, makeScratch, runClient } from './support/scratch.ts';

const gm = ensureGemini();

test(`${gm.label}: the packaged extension installs, and its own copy of the hook ends a looping npm test`, {
  timeout: 180_000,
}, async () => {
  const scratch = makeScratch('gemini-extension', 'enforce');
  const pkg = packageCopy(scratch);
  mkdirSync(join(scratch.home, '.gemini'));
  writeFileSync(
    join(scratch.home, '.gemini', 'settings.json'),
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
  );
  // Gemini asks whether to trust the extension's folder even with --consent
  const installed = spawnSync(
    gm.command,
    [...gm.prefix, 'extensions', 'install', join(pkg, 'extensions', 'gemini'), '--consent'],
    { cwd: scratch.root, env: pluginEnv(scratch, {}), input: 'y\n', encoding: 'utf8' },
  );
  assert.match(installed.stdout + installed.stderr, /Extension "stallguard" installed successfully/);
  const server = await startFakeGemini(LOOPING_NPM_TEST, scratch.requestsLog);
  const env = pluginEnv(scratch, { GOOGLE_GEMINI_BASE_URL: server.url, GEMINI_API_KEY: 'sk-e2e-test' });
  const run = await runClient(
    scratch,
    gm,
    [...gm.prefix, '-p', 'fix the failing tests', '-o', 'stream-json', '--approval-mode', 'yolo', '--skip-trust'],
    { env, server },
  );
  await checkScratch(scratch, () => {
    const results = run.events.filter((e) => e.type === 'tool_result');
    console.log(`${gm.label}: extension ended the loop after ${results.length} calls`);
    assert.match(
      JSON.stringify(results.at(-1)),
      /stopped by hook: stall: `run_shell_command npm test` x\d \(same failure\), twice in this task/,
    );
    assert.ok(results.length < 15);
    assert.equal(sessionFilesUnder(join(scratch.home, '.stallguard'), 0).length, 1);
  });
});
