import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allReminders, longest, toolResults } from './support/anthropic-view.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { LOOPING_NPM_TEST } from './support/claude-scripts.ts';
import { claudeScenario, hookOutputs, requestsOf, toolCalls } from './support/claude-session.ts';
import { ledgerDecisions } from './support/ledger-view.ts';
import { stallguard } from './support/scratch.ts';

const { label } = ensureClaudeCode();

test(`${label}: in shadow mode the loop runs to its end untouched, and the ledger holds what would have been done`, {
  timeout: 180_000,
}, async () => {
  await claudeScenario({ name: 'shadow', mode: 'shadow', script: LOOPING_NPM_TEST }, (run) => {
    const calls = toolCalls(run, 'main');
    const decisions = ledgerDecisions(run.ledger);
    console.log(
      `${label}: shadow mode changes nothing (${run.result.terminal_reason} after ${calls.length} calls; ledger: ${decisions.map((d) => `${d.action} after call ${d.afterCalls}`).join(', ')})`,
    );
    assert.equal(run.hookErrors, '');

    // untouched: all 15 runs happened, nothing from the hook reached the model, the hook printed nothing
    assert.equal(calls.length, 15);
    assert.equal(toolResults(longest(requestsOf(run, 'main'))!).length, 15);
    assert.deepEqual(run.requests.flatMap(allReminders), []);
    assert.deepEqual(hookOutputs(run), []);
    assert.equal(run.result.terminal_reason, 'completed');
    assert.equal(run.result.result, 'Giving up: the tests still fail.');
    assert.deepEqual(run.result.permission_denials, []);

    // what enforce mode would have done: nudge at the third run, stop at the sixth
    assert.deepEqual(
      decisions.map((d) => [d.action, d.code, d.mode, d.afterCalls]),
      [
        ['nudge', 'STALL', 'shadow', 3],
        ['deny', 'REPEAT_DENIED', 'shadow', 3],
        ['stop', 'STALL_AGAIN', 'shadow', 6],
      ],
    );
    // the count is over the task (six runs), and what decided the second stall is named
    assert.equal(
      decisions[2]!.decision.stopReason,
      'stall: `Bash npm test` x6 (same failure), twice in this task (failing runs with nothing changed in between)',
    );

    // and `stallguard status` reports it to the person
    const status = JSON.parse(stallguard(run.scratch, ['status', '--json'])) as {
      mode: string;
      sessions: { id: string; calls: number; stalls: number }[];
    };
    assert.equal(status.mode, 'shadow');
    assert.deepEqual(
      status.sessions.map((s) => [s.id, s.calls, s.stalls]),
      [[run.sessionId, 15, 2]],
    );
  });
});
