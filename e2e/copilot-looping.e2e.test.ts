import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LOOPING_NPM_TEST } from './support/copilot-scripts.ts';
import { copilotExecutions, copilotScenario, ensureCopilot } from './support/copilot-session.ts';
import { toolResults } from './support/chat-session.ts';
import { ledgerDecisions, observedCalls } from './support/ledger-view.ts';

const { label } = ensureCopilot();

test(`${label}: a looping npm test is nudged beside its (successful) result, then the agent is ended`, {
  timeout: 180_000,
}, async () => {
  await copilotScenario(
    { name: 'copilot-looping', mode: 'enforce', scope: 'user', script: LOOPING_NPM_TEST },
    (run) => {
      const results = toolResults(run);
      const runs = copilotExecutions(run);
      console.log(
        `${label}: looping npm test: ${runs.length} calls, ended after ${run.requests.length} model turns, ${(run.ms / 1000).toFixed(1)} s`,
      );
      assert.equal(run.hookErrors, '');
      assert.equal(run.code, 0);
      assert.match(run.installed, /"permissionRequest"/);

      // a failing command is a successful call to Copilot (exit code 1 in the result): the nudge came
      // through postToolUse, appended to one result, by the fifth run
      const guidance = 'Tool "bash" succeeded. Additional guidance from postToolUse hooks:\n';
      const nudged = results.map((r, i) => [i, r] as const).filter(([, r]) => r.includes(`${guidance}stallguard: `));
      assert.equal(nudged.length, 1, JSON.stringify(nudged));
      const [nudgeAt, nudge] = nudged[0]!;
      assert.ok(nudgeAt <= 4, `nudged after run ${nudgeAt + 1}`);
      assert.match(nudge, /`bash npm test` x\d \(same failure\)/);
      // a call repeating the flagged loop may have been refused before it ran
      for (const r of results.filter((r) => r.startsWith('Denied by preToolUse hook')))
        assert.match(r, /^Denied by preToolUse hook: stallguard: this call repeats the loop flagged just before/);

      // the second stall was told to the model beside that result, and the next call was refused at its
      // permission request with interrupt:true, which ended the agent: no model turn after it
      const stopAt = results.findIndex((r) =>
        r.includes(`${guidance}stallguard stopped this agent for the person (stall: \`bash npm test\` x`),
      );
      assert.ok(stopAt > nudgeAt, results.map((r) => r.slice(-90)).join('\n'));
      assert.equal(results.length, stopAt + 1, 'no result reached the model after the stop');
      const last = runs.at(-1)!;
      assert.equal(last.success, false);
      assert.match(
        last.error?.message ?? '',
        /^Permission denied by a PermissionRequest hook: stallguard stopped this agent for the person/,
      );
      assert.ok(runs.length < 15, `ended after ${runs.length} calls`);

      const codes = ledgerDecisions(run.ledger).map((d) => `${d.action} ${d.code}`);
      assert.match(codes.join(', '), /^nudge STALL(, deny REPEAT_DENIED)*, stop STALL_AGAIN$/);
      assert.equal(observedCalls(run.ledger).get('main'), results.filter((r) => !r.startsWith('Denied by')).length);
    },
  );
});
