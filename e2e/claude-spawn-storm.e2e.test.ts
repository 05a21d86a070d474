import { test } from 'node:test';
import assert from 'node:assert/strict';
import { longest, toolResults } from './support/anthropic-view.ts';
import { ensureClaudeCode } from './support/claude-code.ts';
import { PARALLEL_SPAWN_STORM, SPAWN_STORM } from './support/claude-scripts.ts';
import { claudeScenario, requestsOf, toolCalls } from './support/claude-session.ts';
import { ledgerDecisions } from './support/ledger-view.ts';

const { label } = ensureClaudeCode();

test(`${label}: in a spawn storm the 11th Agent call is denied and the model is told why`, {
  timeout: 180_000,
}, async () => {
  await claudeScenario({ name: 'spawn-storm', mode: 'enforce', script: SPAWN_STORM }, (run) => {
    const spawns = toolCalls(run, 'main').filter((c) => c.name === 'Agent');
    const subagents = requestsOf(run, 'sub');
    console.log(
      `${label}: spawn storm is capped (${subagents.length} of ${spawns.length} subagents ran, ${run.result.permission_denials.length} denied, ${run.result.terminal_reason})`,
    );
    assert.equal(run.hookErrors, '');
    assert.equal(spawns.length, 11);

    // ten subagents ran and answered; the eleventh never started, and its denial reached the model as the tool result
    assert.equal(subagents.length, 10);
    const results = toolResults(longest(requestsOf(run, 'main'))!);
    assert.equal(results.length, 11);
    assert.ok(results.slice(0, 10).every((r) => !r.isError && r.text.includes('SUB-RESULT: module checked.')));
    assert.equal(results[10]!.isError, true);
    assert.match(
      results[10]!.text,
      /^stallguard: this would be round 11 of delegation in this task \(10 subagents so far\); the limit is 10\. Do the remaining work yourself/,
    );
    assert.deepEqual(
      run.result.permission_denials.map((d) => d.tool_use_id),
      [spawns[10]!.id],
    );

    // one refusal is not a stop: the agent carried on and finished
    assert.equal(run.result.terminal_reason, 'completed');
    assert.equal(run.result.result, 'Summary of the modules.');
    assert.deepEqual(
      ledgerDecisions(run.ledger).map((d) => [d.code, d.agent.id]),
      [['SPAWN_REFUSED', 'main']],
    );
  });
});

test(`${label}: 12 spawns in one turn, their hooks running at once, are one round of delegation: all 12 start`, {
  timeout: 180_000,
}, async () => {
  await claudeScenario({ name: 'parallel-spawns', mode: 'enforce', script: PARALLEL_SPAWN_STORM }, (run) => {
    const spawns = toolCalls(run, 'main').filter((c) => c.name === 'Agent');
    const subagents = requestsOf(run, 'sub');
    console.log(
      `${label}: 12 parallel spawns are one round (${subagents.length} started, ${run.result.permission_denials.length} denied; ${run.result.terminal_reason})`,
    );
    assert.equal(run.hookErrors, '');
    assert.equal(spawns.length, 12);
    // a fan-out in one response is one decision, whatever order the concurrent hooks record its spawns in
    assert.equal(subagents.length, 12);
    assert.equal(run.result.permission_denials.length, 0);
    assert.deepEqual(ledgerDecisions(run.ledger), []);
    assert.equal(run.result.terminal_reason, 'completed');
  });
});
