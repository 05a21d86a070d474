import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AnthropicMessage } from './support/fake-anthropic.ts';
import { ledgerDecisions, observedCalls } from './support/ledger-view.ts';
import { OPENCODE } from './support/plugin-agents.ts';
import { SUB_MARKER, SUBAGENT_REJECTED_EDITS } from './support/plugin-scripts.ts';
import { ensureAgent, pluginScenario } from './support/plugin-session.ts';
import { toolResults } from './support/anthropic-view.ts';

const { label } = ensureAgent(OPENCODE);

const firstUserText = (messages: AnthropicMessage[] = []) =>
  JSON.stringify(messages.find((m) => m.role === 'user')?.content ?? '');

test(`${label}: a subagent stuck on a rejected edit is told so in the error it reads, then its session alone is aborted`, {
  timeout: 180_000,
}, async () => {
  await pluginScenario(OPENCODE)(
    { name: 'opencode-subagent', mode: 'enforce', script: SUBAGENT_REJECTED_EDITS },
    (run) => {
      const sub = run.requests.filter((r) => firstUserText(r.messages).includes(SUB_MARKER));
      const main = run.requests.filter((r) => !firstUserText(r.messages).includes(SUB_MARKER));
      const edits = toolResults(sub.at(-1)!);
      console.log(
        `${label}: subagent stopped after ${edits.length} rejected edits; the main agent went on (${(run.ms / 1000).toFixed(1)} s)`,
      );
      assert.equal(run.hookErrors, '');

      // the subagent's calls are filed under the main session, as an agent of their own with its type
      const decisions = ledgerDecisions(run.ledger);
      assert.ok(
        decisions.length > 0 && decisions.every((d) => d.agent.id.startsWith('ses_') && d.agent.type === 'general'),
        JSON.stringify(decisions.map((d) => d.agent)),
      );
      assert.match(
        decisions.map((d) => `${d.action} ${d.code}`).join(', '),
        /^nudge STALL(, deny REPEAT_DENIED)*, stop STALL_AGAIN$/,
      );
      const calls = observedCalls(run.ledger);
      assert.equal(calls.get('main'), 1, 'the main agent made one call: the task');

      // the nudge reached the subagent in the rejected edit's error, the one channel a failed call has
      const nudged = edits.filter((r) => /\n\nstallguard: /.test(r.text));
      assert.equal(nudged.length, 1, edits.map((r) => r.text.slice(-100)).join('\n'));
      assert.ok(nudged[0]!.isError);
      assert.ok(edits.length < 15);

      // the abort ended the subagent's session, not the main agent's: it read the task as cancelled and finished
      assert.deepEqual(
        toolResults(main.at(-1)!).map((r) => [r.text, r.isError]),
        [['Task cancelled', true]],
      );
      assert.equal(run.code, 0);
      assert.match(JSON.stringify(run.events.filter((e) => e.type === 'text').at(-1)), /MAIN-DONE/);
    },
  );
});
