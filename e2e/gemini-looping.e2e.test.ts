import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOOPING_NPM_TEST } from './support/gemini-scripts.ts';
import { ensureGemini, geminiScenario, geminiStreamResults, geminiToolResults } from './support/gemini-session.ts';
import { ledgerDecisions, observedCalls } from './support/ledger-view.ts';

const { label } = ensureGemini();

test(`${label}: a looping npm test is nudged, then the agent loop is ended`, { timeout: 180_000 }, async () => {
  await geminiScenario({ name: 'gemini-looping', mode: 'enforce', script: LOOPING_NPM_TEST }, (run) => {
    const results = geminiToolResults(run);
    const stream = geminiStreamResults(run);
    console.log(
      `${label}: looping npm test: ${stream.length} calls, ended after ${run.requests.length} model turns, ${(run.ms / 1000).toFixed(1)} s`,
    );
    assert.equal(run.hookErrors, '');
    // the hooks went in beside the auth setting, which stayed
    assert.match(run.installedSettings, /"selectedType": "gemini-api-key"/);

    // the nudge was appended to one result (each reported a new process group id), by the fifth run
    const nudged = results.map((r, i) => [i, r.output ?? ''] as const).filter(([, o]) => o.includes('<hook_context>'));
    assert.equal(nudged.length, 1, JSON.stringify(nudged));
    const [nudgeAt, nudge] = nudged[0]!;
    assert.ok(nudgeAt <= 4, `nudged after run ${nudgeAt + 1}`);
    assert.match(nudge, /<hook_context>stallguard: .*`run_shell_command npm test` x\d \(same failure\)/s);
    // a call repeating the flagged loop may have been refused before it ran
    for (const r of results.filter((r) => r.error))
      assert.match(r.error!, /^Tool execution blocked: stallguard: this call repeats the loop flagged just before/);

    // the second stall ended the agent loop: no model turn after it, though the script had more
    const last = stream.at(-1)!;
    assert.equal(last.status, 'error');
    assert.match(
      JSON.stringify(last),
      /stopped by hook: stall: `run_shell_command npm test` x\d \(same failure\), twice in this task/,
    );
    assert.ok(stream.length < 15, `stopped after ${stream.length} calls`);
    assert.equal(run.requests.length, stream.length, 'no model turn after the stop');

    const codes = ledgerDecisions(run.ledger).map((d) => `${d.action} ${d.code}`);
    assert.match(codes.join(', '), /^nudge STALL(, deny REPEAT_DENIED)*, stop STALL_AGAIN$/);
    assert.equal(observedCalls(run.ledger).get('main'), results.filter((r) => !r.error).length + 1);
  });
});
