import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOOPING_NPM_TEST } from './support/codex-scripts.ts';
import { codexScenario, codexToolResults, ensureCodex } from './support/codex-session.ts';
import { ledgerDecisions, observedCalls } from './support/ledger-view.ts';

const { label } = ensureCodex();

test(`${label}: a looping npm test is nudged, then the agent is stopped and every later call denied`, {
  timeout: 180_000,
}, async () => {
  await codexScenario({ name: 'codex-looping', mode: 'enforce', script: LOOPING_NPM_TEST }, (run) => {
    const results = codexToolResults(run);
    const blocked = (r: { output: string }) => r.output.startsWith('Command blocked by PreToolUse hook: ');
    console.log(
      `${label}: looping npm test: ${results.length} calls, ${results.filter(blocked).length} denied, ${(run.ms / 1000).toFixed(1)} s`,
    );
    assert.equal(run.hookErrors, '');
    assert.equal(run.code, 0);

    // the nudge reached the model as a developer message beside one result, by the fifth identical run
    const nudged = results
      .map((r, i) => [i, r.context.filter((c) => c.startsWith('stallguard:'))] as const)
      .filter(([, c]) => c.length > 0);
    assert.equal(nudged.length, 1, JSON.stringify(nudged));
    const [nudgeAt, [nudge]] = nudged[0]!;
    assert.ok(nudgeAt <= 4, `nudged after run ${nudgeAt + 1}`);
    assert.match(nudge!, /`Bash npm test` x\d \(same failure\)/);

    // the second stall stopped the agent: continue:false put the reason where the model reads the output
    // (it does not end a Codex turn), and every later call was denied without running
    const stopAt = results.findIndex((r) =>
      /^stallguard stopped this agent for the person \(stall: `Bash npm test` x\d/.test(r.output),
    );
    assert.ok(stopAt > nudgeAt, results.map((r) => r.output.slice(0, 70)).join('\n'));
    const after = results.slice(stopAt + 1);
    assert.ok(after.length > 0, 'the model kept calling after the stop');
    for (const r of after)
      assert.match(r.output, /^Command blocked by PreToolUse hook: stallguard stopped this agent for the person/);
    // between the two, a call repeating the flagged loop may have been refused; the others ran
    for (const r of results.slice(nudgeAt + 1, stopAt).filter(blocked))
      assert.match(r.output, /stallguard: this call repeats the loop flagged just before/);

    // the ledger: a nudge, perhaps refused repeats, a stop; and exactly the calls that ran were observed
    const codes = ledgerDecisions(run.ledger).map((d) => `${d.action} ${d.code}`);
    assert.match(codes.join(', '), /^nudge STALL(, deny REPEAT_DENIED)*, stop STALL_AGAIN$/);
    assert.equal(observedCalls(run.ledger).get('main'), results.filter((r) => !blocked(r)).length);
  });
});
