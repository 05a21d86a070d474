import { test } from 'node:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { longest, toolResults } from './support/anthropic-view.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { REMOVE_THE_HOOK } from './support/claude-scripts.ts';
import { claudeScenario, readSettings, requestsOf, toolCalls } from './support/claude-session.ts';
import { ledgerDecisions } from './support/ledger-view.ts';

const { label } = ensureClaudeCode();

test(`${label}: the agent can back up .claude/settings.local.json, not remove the hook from it`, {
  timeout: 180_000,
}, async () => {
  await claudeScenario({ name: 'self-protect', mode: 'enforce', script: REMOVE_THE_HOOK }, (run) => {
    const calls = toolCalls(run, 'main');
    console.log(
      `${label}: a backup of the hook settings is made, switching the hook off is denied (${run.result.permission_denials.length} of ${calls.length - 2} attempts, file unchanged)`,
    );
    assert.equal(run.hookErrors, '');

    const results = toolResults(longest(requestsOf(run, 'main'))!);
    assert.deepEqual(
      calls.map((c) => c.name),
      ['Read', 'Bash', 'Edit', 'Write', 'Bash'],
    );
    assert.equal(results[0]!.isError, false, 'reading the settings stays allowed');
    assert.equal(results[1]!.isError, false, 'a backup of the settings, which only reads them, stays allowed');
    const backups = readdirSync(join(run.scratch.project, '.claude')).filter((f) =>
      f.startsWith('settings.local.json.bak-'),
    );
    assert.equal(backups.length, 1);
    assert.equal(readFileSync(join(run.scratch.project, '.claude', backups[0]!), 'utf8'), run.installedSettings);
    assert.match(
      results
        .slice(2)
        .map((r) => r.text)
        .join('\n'),
      /turn hooks off in \S*\.claude\/settings\.local\.json/,
    );
    for (const r of results.slice(2)) {
      assert.equal(r.isError, true);
      assert.match(
        r.text,
        /^stallguard: this call would .*\.claude\/settings\.local\.json.*The person can make the change themselves: edit \S*\.claude\/settings\.local\.json/,
      );
    }
    assert.deepEqual(
      run.result.permission_denials.map((d) => d.tool_name),
      ['Edit', 'Write', 'Bash'],
    );
    assert.deepEqual(
      ledgerDecisions(run.ledger).map((d) => d.code),
      ['SELF_PROTECT', 'SELF_PROTECT', 'SELF_PROTECT'],
    );
    assert.match(run.installedSettings, /hook\.cjs --agent claude --serve-port \d+ # stallguard/);
    assert.equal(readSettings(run), run.installedSettings);
    assert.equal(run.result.terminal_reason, 'completed');
  });
});
