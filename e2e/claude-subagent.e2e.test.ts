import { test } from 'node:test';
import assert from 'node:assert/strict';
import { longest, toolResults } from './support/anthropic-view.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { LOOPING_SUBAGENT } from './support/claude-scripts.ts';
import { claudeScenario, hookOutputs, requestsOf, toolCalls } from './support/claude-session.ts';
import { ledgerDecisions } from './support/ledger-view.ts';

const { label } = ensureClaudeCode();

test(`${label}: a looping subagent is nudged and stopped, and the main agent carries on`, {
  timeout: 180_000,
}, async () => {
  await claudeScenario({ name: 'subagent', mode: 'enforce', script: LOOPING_SUBAGENT }, (run) => {
    const subCalls = toolCalls(run, 'sub');
    const mainCalls = toolCalls(run, 'main');
    console.log(
      `${label}: looping subagent is nudged then stopped (after ${subCalls.length} calls), main agent ${run.result.terminal_reason}`,
    );
    assert.equal(run.hookErrors, '');

    // the subagent got the nudge beside its fifth result, went on, and was stopped well before its 15th call
    const sub = toolResults(longest(requestsOf(run, 'sub'))!);
    const nudged = sub.flatMap((r, i) => r.reminders.map((m) => ({ at: i + 1, ...m })));
    assert.deepEqual(
      nudged.map((n) => [n.at, n.label]),
      [[3, 'PostToolUseFailure:Bash']],
    );
    assert.match(
      nudged[0]!.text,
      /^stallguard: the same call ran 3 times and the result did not change: `Bash npm test` x3/,
    );
    assert.ok(sub.length > 3);
    assert.ok(subCalls.length <= 11, `subagent stopped after ${subCalls.length} calls`);
    assert.ok(
      hookOutputs(run).some(
        (h) => h.output.continue === false && (h.hook === 'PostToolBatch' || h.hook.startsWith('PreToolUse')),
      ),
    );

    // the main agent was not stopped: it got the subagent's (empty) result, made its next call and finished
    assert.deepEqual(
      mainCalls.map((c) => c.name),
      ['Agent', 'Read'],
    );
    const main = toolResults(longest(requestsOf(run, 'main'))!);
    assert.equal(main.length, 2);
    assert.ok(main.every((r) => !r.isError && r.reminders.length === 0));
    assert.equal(run.result.terminal_reason, 'completed');
    assert.equal(run.result.result, 'MAIN-DONE: the subagent could not fix the tests.');

    // both decisions were about the subagent, recorded under its own id and type
    const decisions = ledgerDecisions(run.ledger);
    assert.deepEqual(
      decisions.map((d) => [d.code, d.agent.type, d.afterCalls]),
      [
        ['STALL', 'general-purpose', 3],
        ['REPEAT_DENIED', 'general-purpose', 3],
        ['STALL_AGAIN', 'general-purpose', 6],
      ],
    );
    assert.ok(decisions.every((d) => d.agent.id !== 'main'));
  });
});
