import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ensureClaudeCode } from './support/claude-code.ts';
import { LOOPING_NPM_TEST } from './support/claude-scripts.ts';
import { startFakeAnthropic } from './support/fake-anthropic.ts';
import { packageCopy, pluginEnv, sessionFilesUnder } from './support/packaged.ts';
import { checkScratch, makeScratch, runClient } from './support/scratch.ts';

const cc = ensureClaudeCode();

test(`${cc.label}: the packaged plugin, installed from its folder as a marketplace, stops a looping npm test, and keeps its state in CLAUDE_PLUGIN_DATA`, {
  timeout: 180_000,
}, async () => {
  const scratch = makeScratch('claude-plugin', 'enforce');
  const plugin = packageCopy(scratch);
  const server = await startFakeAnthropic(LOOPING_NPM_TEST, scratch.requestsLog);
  const env = pluginEnv(scratch, {
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-e2e-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  });
  // as a person installs it: the package's folder added as a marketplace, the plugin installed from it
  for (const step of [
    ['marketplace', 'add', plugin],
    ['install', 'stallguard@stallguard'],
  ])
    execFileSync(cc.command, [...cc.prefix, 'plugin', ...step], {
      cwd: scratch.project,
      env,
      stdio: 'ignore',
      timeout: 60_000,
    });
  const args = [
    ...cc.prefix,
    '-p',
    'fix the failing tests',
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-hook-events',
    '--allowedTools',
    'Bash,Read',
  ];
  const run = await runClient(scratch, cc, args, { env, server });
  await checkScratch(scratch, () => {
    const events = run.events as Record<string, any>[];
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init')!;
    const result = events.findLast((e) => e.type === 'result')!;
    console.log(`${cc.label}: plugin stopped the loop (${result.terminal_reason} after ${result.num_turns} turns)`);
    assert.ok(
      init.plugins.some((p: { name: string }) => p.name === 'stallguard'),
      JSON.stringify(init.plugins),
    );
    assert.equal(result.terminal_reason, 'hook_stopped');
    const outputs = events
      .filter((e) => e.type === 'system' && e.subtype === 'hook_response' && String(e.stdout).trim())
      .map((e) => JSON.parse(e.stdout));
    assert.ok(
      outputs.some((o) => /^stallguard: /.test(o.hookSpecificOutput?.additionalContext ?? '')),
      'a nudge',
    );
    assert.ok(
      outputs.some((o) => o.continue === false && /^stall: `Bash npm test` x\d/.test(o.stopReason)),
      'a stop',
    );
    // the state lives in the plugin's data folder, and nowhere else
    const ledgers = sessionFilesUnder(join(scratch.home, '.claude', 'plugins', 'data'));
    assert.equal(ledgers.length, 1, ledgers.join(', '));
    assert.equal(existsSync(join(scratch.home, '.stallguard')), false);
  });
});
