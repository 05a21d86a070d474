import { test } from 'node:test';
import assert from 'node:assert/strict';
import { longest, toolResults } from './support/anthropic-view.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { LOOPING_NPM_TEST } from './support/claude-scripts.ts';
import { claudeScenario, hookOutputs, requestsOf, toolCalls } from './support/claude-session.ts';
import { ledgerDecisions } from './support/ledger-view.ts';

const { label } = ensureClaudeCode();

test(`${label}: a looping npm test is nudged, goes on, then is stopped`, { timeout: 180_000 }, async () => {
  await claudeScenario({ name: 'looping', mode: 'enforce', script: LOOPING_NPM_TEST }, (run) => {
    const calls = toolCalls(run, 'main');
    console.log(
      `${label}: looping npm test is nudged then stopped (${run.result.terminal_reason} after ${calls.length} calls, ${(run.ms / 1000).toFixed(1)} s)`,
    );
    assert.equal(run.hookErrors, '');

    // the nudge reached the model as a system reminder beside the fifth failing result, and only there
    const results = toolResults(longest(requestsOf(run, 'main'))!);
    const nudged = results.flatMap((r, i) => r.reminders.map((m) => ({ at: i + 1, ...m })));
    assert.equal(nudged.length, 1, `one hook reminder expected, got ${JSON.stringify(nudged)}`);
    assert.equal(nudged[0]!.at, 3);
    assert.equal(nudged[0]!.label, 'PostToolUseFailure:Bash');
    assert.equal(nudged[0]!.kind, 'additional context');
    assert.match(
      nudged[0]!.text,
      /^stallguard: the same call ran 3 times and the result did not change: `Bash npm test` x3 \(same failure\)/,
    );

    // the loop went on after the nudge, and the session was stopped by the hook well before the 15th call
    assert.ok(results.length > 3, 'the model kept working after the nudge');
    assert.equal(run.result.terminal_reason, 'hook_stopped');
    assert.ok(calls.length <= 11, `stopped after ${calls.length} calls`);
    assert.ok(calls.every((c) => c.name === 'Bash' && c.input.command === 'npm test'));
    const stops = hookOutputs(run).filter((h) => h.output.continue === false);
    assert.ok(
      stops.some((h) => h.hook === 'PostToolBatch' || h.hook.startsWith('PreToolUse')),
      `a stop where Claude Code honours it: ${stops.map((h) => h.hook).join(', ')}`,
    );
    // the loop is counted over the task, and the reason may name what decided (main's 119b898, 8a3cc3c)
    assert.ok(
      stops.every((h) =>
        /^stall: `Bash npm test` x\d+ \(same failure\), twice in this task( \(.+\))?$/.test(
          String(h.output.stopReason),
        ),
      ),
      stops.map((h) => h.output.stopReason).join('; '),
    );

    const decisions = ledgerDecisions(run.ledger);
    assert.deepEqual(
      decisions.map((d) => [d.code, d.mode, d.afterCalls]),
      [
        // the judge sees three identical failures with nothing changed in between as a stall
        ['STALL', 'enforce', 3],
        // the very next call repeated the flagged loop: denied, so it never ran
        ['REPEAT_DENIED', 'enforce', 3],
        ['STALL_AGAIN', 'enforce', 6],
      ],
    );
  });
});
