import { test } from 'node:test';
import assert from 'node:assert/strict';
import { longest, toolResults } from './support/anthropic-view.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { REMOVE_THE_HOOK } from './support/claude-scripts.ts';
import { claudeScenario, readSettings, requestsOf, toolCalls } from './support/claude-session.ts';
import { ledgerDecisions } from './support/ledger-view.ts';

const { label } = ensureClaudeCode();

test(`${label}: the agent cannot edit .claude/settings.local.json to remove the hook`, { timeout: 180_000 }, async () => {
  await claudeScenario({ name: 'self-protect', mode: 'enforce', script: REMOVE_THE_HOOK }, (run) => {
    const calls = toolCalls(run, 'main');
    console.log(`${label}: edits of the hook settings are denied (${run.result.permission_denials.length} of ${calls.length - 1} attempts, file unchanged)`);
    assert.equal(run.hookErrors, '');

    const results = toolResults(longest(requestsOf(run, 'main'))!);
    assert.deepEqual(calls.map((c) => c.name), ['Read', 'Edit', 'Write', 'Bash']);
    assert.equal(results[0]!.isError, false, 'reading the settings stays allowed');
    for (const r of results.slice(1)) {
      assert.equal(r.isError, true);
      assert.match(r.text, /^stallguard: this call would change \S*\.claude\/settings\.local\.json, which holds stallguard's configuration or an agent's hook settings/);
    }
    assert.deepEqual(run.result.permission_denials.map((d) => d.tool_name), ['Edit', 'Write', 'Bash']);
    assert.deepEqual(ledgerDecisions(run.ledger).map((d) => d.code), ['SELF_PROTECT', 'SELF_PROTECT', 'SELF_PROTECT']);
    assert.match(run.installedSettings, /hook\.cjs --agent claude # stallguard/);
    assert.equal(readSettings(run), run.installedSettings);
    assert.equal(run.result.terminal_reason, 'completed');
  });
});
