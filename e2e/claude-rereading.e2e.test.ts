import { test } from 'node:test';
import assert from 'node:assert/strict';
import { batchContexts, longest, toolResults } from './support/anthropic-view.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { REREADING } from './support/claude-scripts.ts';
import { claudeScenario, requestsOf, toolCalls } from './support/claude-session.ts';
import { ledgerDecisions } from './support/ledger-view.ts';

// A loop of calls that all succeed, with the default install (the daemon): no PostToolUse is registered, so
// each result reaches stallguard in the list PostToolBatch carries, and the nudge goes back to the model
// from there, beside the result it is about.

const { label } = ensureClaudeCode();

test(`${label}: a loop of successful reads is seen through PostToolBatch alone, and nudged there`, {
  timeout: 180_000,
}, async () => {
  await claudeScenario({ name: 'rereading', mode: 'enforce', script: REREADING }, (run) => {
    const calls = toolCalls(run, 'main');
    console.log(
      `${label}: rereading, ${run.result.terminal_reason} after ${calls.length} calls (${(run.ms / 1000).toFixed(1)} s)`,
    );
    assert.equal(run.hookErrors, '');
    assert.doesNotMatch(JSON.stringify(JSON.parse(run.installedSettings).hooks.PostToolUse ?? null), /stallguard/);
    const conversation = longest(requestsOf(run, 'main'))!;
    // no reminder beside any result: the batch's context is a message of its own, right after the result
    assert.deepEqual(
      toolResults(conversation).flatMap((r) => r.reminders),
      [],
    );
    const nudged = batchContexts(conversation);
    assert.equal(nudged.length, 1, JSON.stringify(nudged));
    assert.match(nudged[0]!.text, /^stallguard: .*`Read src\/math\.js` x\d+ \(same result\)/);
    // every read that ran was observed once, from its batch's list
    const observed = run.ledger.filter((l) => l.t === 'o' && l.o.step.k === 'call').length;
    assert.equal(observed, calls.length - (run.result.permission_denials?.length ?? 0));
    const first = ledgerDecisions(run.ledger)[0]!;
    assert.equal(first.code, 'STALL');
    assert.equal(nudged[0]!.afterResults, first.afterCalls);
    assert.equal(run.result.terminal_reason, 'hook_stopped');
  });
});
