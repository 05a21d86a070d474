import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBounded } from './support/bounded-run.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { LOOPING_NPM_TEST } from './support/claude-scripts.ts';
import { startFakeAnthropic } from './support/fake-anthropic.ts';
import { packageCopy, pluginEnv, sessionFilesUnder } from './support/packaged.ts';
import { makeScratch, removeScratch } from './support/scratch.ts';

const cc = ensureClaudeCode();

test(`${cc.label}: the packaged plugin loads, stops a looping npm test, and keeps its state in CLAUDE_PLUGIN_DATA`, { timeout: 180_000 }, async () => {
  const scratch = makeScratch('claude-plugin', 'enforce');
  const plugin = packageCopy(scratch);
  const server = await startFakeAnthropic(LOOPING_NPM_TEST, scratch.requestsLog);
  const env = pluginEnv(scratch, { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'sk-e2e-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1' });
  const args = [...cc.prefix, '-p', 'fix the failing tests', '--output-format', 'stream-json', '--verbose', '--include-hook-events', '--allowedTools', 'Bash,Read', '--plugin-dir', plugin];
  let run;
  try {
    run = await runBounded(cc.command, args, { cwd: scratch.project, env, timeoutMs: 120_000 });
  } finally {
    await server.close();
  }
  writeFileSync(join(scratch.root, 'stream.jsonl'), run.stdout);
  try {
    const events = run.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
    const init = events.find((e) => e.type === 'system' && e.subtype === 'init')!;
    const result = events.findLast((e) => e.type === 'result')!;
    console.log(`${cc.label}: plugin stopped the loop (${result.terminal_reason} after ${result.num_turns} turns)`);
    assert.ok(init.plugins.some((p: { name: string }) => p.name === 'stallguard'), JSON.stringify(init.plugins));
    assert.equal(result.terminal_reason, 'hook_stopped');
    const outputs = events.filter((e) => e.type === 'system' && e.subtype === 'hook_response' && String(e.stdout).trim()).map((e) => JSON.parse(e.stdout));
    assert.ok(outputs.some((o) => /^stallguard: /.test(o.hookSpecificOutput?.additionalContext ?? '')), 'a nudge');
    assert.ok(outputs.some((o) => o.continue === false && /^stall: `Bash npm test` x\d/.test(o.stopReason)), 'a stop');
    // the state lives in the plugin's data folder, and nowhere else
    const ledgers = sessionFilesUnder(join(scratch.home, '.claude', 'plugins', 'data'));
    assert.equal(ledgers.length, 1, ledgers.join(', '));
    assert.equal(existsSync(join(scratch.home, '.stallguard')), false);
  } catch (error) {
    if (error instanceof Error) error.message += `\n(scratch kept in ${scratch.root})`;
    throw error;
  }
  removeScratch(scratch);
});
