import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { allReminders, longest, toolResults } from './support/anthropic-view.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { HEALTHY_TDD } from './support/claude-scripts.ts';
import { claudeScenario, hookOutputs, requestsOf, toolCalls } from './support/claude-session.ts';
import { observedCalls } from './support/ledger-view.ts';
import { scratchEnv } from './support/scratch.ts';

const { label } = ensureClaudeCode();

test(`${label}: healthy test-driven work is never touched`, { timeout: 180_000 }, async () => {
  await claudeScenario({ name: 'healthy', mode: 'enforce', script: HEALTHY_TDD }, (run) => {
    const calls = toolCalls(run, 'main');
    console.log(
      `${label}: healthy test-driven work is left alone (${run.result.terminal_reason} after ${calls.length} calls)`,
    );
    assert.equal(run.hookErrors, '');

    // the test output changed with each edit, and the work really happened
    const tests = toolResults(longest(requestsOf(run, 'main'))!).filter(
      (_, i) => calls[i]?.input.command === 'npm test',
    );
    assert.deepEqual(
      tests.map((r) => [r.isError, /\d+ passed, \d+ failed/.exec(r.text)?.[0]]),
      [
        [true, '0 passed, 2 failed'],
        [true, '1 passed, 1 failed'],
        [false, '2 passed, 0 failed'],
      ],
    );
    execFileSync('npm', ['test', '--silent'], {
      cwd: run.scratch.project,
      env: scratchEnv(run.scratch),
      stdio: 'ignore',
    });

    // nothing from the hook reached the model, and the session completed
    assert.deepEqual(run.requests.flatMap(allReminders), []);
    assert.ok(!run.requests.some((r) => JSON.stringify(r).includes('stallguard:')));
    assert.deepEqual(hookOutputs(run), []);
    assert.equal(run.result.terminal_reason, 'completed');
    assert.equal(run.result.result, 'All tests pass.');
    assert.deepEqual(run.result.permission_denials, []);

    // it was watching all along: every call observed, no decision taken
    assert.equal(observedCalls(run.ledger).get('main'), 6);
    assert.ok(!run.ledger.some((l) => l.t === 'd'));
  });
});
