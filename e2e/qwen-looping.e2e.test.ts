import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOOPING_NPM_TEST } from './support/qwen-scripts.ts';
import { ensureQwen, qwenScenario } from './support/qwen-session.ts';
import { toolResults } from './support/chat-session.ts';
import { ledgerDecisions, observedCalls } from './support/ledger-view.ts';

const { label } = ensureQwen();

test(`${label}: a looping npm test is nudged, then the turn is ended before the model is asked again`, {
  timeout: 180_000,
}, async () => {
  await qwenScenario({ name: 'qwen-looping', mode: 'enforce', scope: 'user', script: LOOPING_NPM_TEST }, (run) => {
    const results = toolResults(run);
    console.log(
      `${label}: looping npm test: ${results.length} calls, ended after ${run.requests.length} model turns, ${(run.ms / 1000).toFixed(1)} s`,
    );
    assert.equal(run.hookErrors, '');
    assert.equal(run.code, 0);

    // the nudge was appended to one failing result, by the fifth run
    const nudged = results
      .map((r, i) => [i, r] as const)
      .filter(([, r]) => /\n\nstallguard: /.test(r) && !/stopped this agent/.test(r));
    assert.equal(nudged.length, 1, JSON.stringify(nudged));
    const [nudgeAt, nudge] = nudged[0]!;
    assert.ok(nudgeAt <= 4, `nudged after run ${nudgeAt + 1}`);
    assert.match(nudge, /`run_shell_command npm test` x\d \(same failure\)/);
    // a call repeating the flagged loop may have been refused before it ran
    for (const r of results.filter((r) => !r.startsWith('Command: ')))
      assert.match(r, /^stallguard: this call repeats the loop flagged just before/);

    // the second stall was decided on the next call; the UserPromptSubmit before the following model
    // request refused it, which ended the turn: that call's result (with the reason beside it) never went
    // back to the model (the interactive UI shows the person the reason)
    const calls = run.events.filter((e) => e.type === 'assistant' && JSON.stringify(e).includes('"tool_use"')).length;
    assert.equal(run.requests.length, results.length + 1, 'one model turn per call, none after the stopping call');
    assert.equal(calls, results.length + 1);
    assert.ok(calls < 15, `ended after ${calls} calls`);
    assert.equal(run.events.at(-1)?.type, 'result');

    const codes = ledgerDecisions(run.ledger).map((d) => `${d.action} ${d.code}`);
    assert.match(codes.join(', '), /^nudge STALL(, deny REPEAT_DENIED)*, stop STALL_AGAIN$/);
    assert.equal(observedCalls(run.ledger).get('main'), results.filter((r) => r.startsWith('Command: ')).length + 1);
    assert.match(
      ledgerDecisions(run.ledger).at(-1)!.decision.stopReason ?? '',
      /^stall: `run_shell_command npm test` x\d \(same failure\), twice in this task( \(.+\))?$/,
    );
  });
});
