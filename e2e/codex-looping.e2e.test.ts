import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOOPING_NPM_TEST } from './support/codex-scripts.ts';
import { codexScenario, codexToolResults, ensureCodex } from './support/codex-session.ts';
import { ledgerDecisions, observedCalls } from './support/ledger-view.ts';

const { label } = ensureCodex();

test(`${label}: a looping npm test is nudged, its repeat denied, then the agent is stopped and every later call denied`, { timeout: 180_000 }, async () => {
  await codexScenario({ name: 'codex-looping', mode: 'enforce', script: LOOPING_NPM_TEST }, (run) => {
    const results = codexToolResults(run);
    const blocked = results.map((r, i) => [i + 1, r] as const).filter(([, r]) => r.output.startsWith('Command blocked by PreToolUse hook'));
    console.log(`${label}: looping npm test: ${results.length} calls, ${blocked.length} denied, ${(run.ms / 1000).toFixed(1)} s`);
    assert.equal(run.hookErrors, '');
    assert.equal(run.code, 0);

    // the nudge reached the model as a developer message beside the fifth result, and only there
    const nudged = results.map((r, i) => [i + 1, r.context.filter((c) => c.startsWith('stallguard:'))] as const).filter(([, c]) => c.length > 0);
    assert.equal(nudged.length, 1, JSON.stringify(nudged));
    assert.equal(nudged[0]![0], 5);
    assert.match(nudged[0]![1][0]!, /`Bash npm test` x5 \(same result\)/);

    // the very next repeat was refused: the command did not run
    assert.match(results[5]!.output, /^Command blocked by PreToolUse hook: stallguard: this call repeats the loop flagged just before/);

    // the second stall stopped the agent: continue:false put the reason where the model reads the output
    // (it does not end a Codex turn), and every later call was denied, none of them run
    const stopAt = results.findIndex((r) => /^stallguard stopped this agent for the person \(stall: `Bash npm test` x5/.test(r.output));
    assert.ok(stopAt > 5, results.map((r) => r.output.slice(0, 60)).join('\n'));
    const after = results.slice(stopAt + 1);
    assert.ok(after.length > 0, 'the model kept calling after the stop');
    for (const r of after) assert.match(r.output, /^Command blocked by PreToolUse hook: stallguard stopped this agent for the person/);

    // the ledger: the nudge after 5 runs, the refused repeat, the stop after 10 runs; only those ran
    const decisions = ledgerDecisions(run.ledger);
    assert.deepEqual(decisions.map((d) => [d.action, d.code, d.afterCalls]), [
      ['nudge', 'STALL', 5],
      ['deny', 'STALL', 5],
      ['stop', 'STALL_AGAIN', 10],
    ]);
    assert.equal(observedCalls(run.ledger).get('main'), 10);
  });
});
