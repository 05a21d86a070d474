import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OPENCODE } from './support/plugin-agents.ts';
import { checkNudgedThenStopped } from './support/plugin-checks.ts';
import { loopingNpmTest } from './support/plugin-scripts.ts';
import { ensureAgent, pluginScenario } from './support/plugin-session.ts';

const { label } = ensureAgent(OPENCODE);

test(`${label}: the plugin nudges a looping npm test, refuses its repeat, then aborts the session`, { timeout: 180_000 }, async () => {
  await pluginScenario(OPENCODE)({ name: 'opencode-looping', mode: 'enforce', script: loopingNpmTest(OPENCODE) }, (run) => {
    const calls = run.events.filter((e) => e.type === 'tool_use').map((e) => (e.part as { state: { status: string; error?: string } }).state);
    // the call that was stopped ran too, but the abort ended the turn before opencode reported it
    const ran = calls.filter((s) => s.status === 'completed').length + 1;
    console.log(`${label}: looping npm test: ${ran} calls ran, ${calls.filter((c) => c.status === 'error').length} refused, then aborted (${(run.ms / 1000).toFixed(1)} s)`);
    assert.match(run.installedPlugin, /^export \{ StallguardPlugin \} from ".*\/dist\/opencode-plugin\.js";$/m);
    checkNudgedThenStopped(run, ran);
    // a refused call is an error part carrying stallguard's reason; the session ended on the abort
    for (const s of calls.filter((c) => c.status === 'error')) assert.match(s.error!, /^stallguard: this call repeats the loop/);
    assert.deepEqual(run.events.at(-1)?.error, { name: 'MessageAbortedError', data: { message: 'Aborted' } });
  });
});
