import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PI } from './support/plugin-agents.ts';
import { checkNudgedThenStopped } from './support/plugin-checks.ts';
import { loopingNpmTest } from './support/plugin-scripts.ts';
import { ensureAgent, pluginScenario } from './support/plugin-session.ts';
import { stallguard } from './support/scratch.ts';

const { label } = ensureAgent(PI);

test(`${label}: the extension nudges a looping npm test, refuses its repeat, then aborts the run`, {
  timeout: 180_000,
}, async () => {
  await pluginScenario(PI)({ name: 'pi-looping', mode: 'enforce', script: loopingNpmTest(PI) }, (run) => {
    const ends = run.events.filter((e) => e.type === 'tool_execution_end');
    const refused = ends.filter((e) => JSON.stringify(e.result).includes('stallguard: this call repeats the loop'));
    console.log(
      `${label}: looping npm test: ${ends.length - refused.length} calls ran, ${refused.length} refused, then aborted (${(run.ms / 1000).toFixed(1)} s)`,
    );
    assert.equal(run.code, 0);
    assert.match(run.installedPlugin, /^export \{ default \} from ".*\/dist\/pi-extension\.js";$/m);
    checkNudgedThenStopped(run, ends.length - refused.length);
    // the run ended on the abort: its last assistant message was cut off, with no model call after it
    const end = run.events.findLast((e) => e.type === 'agent_end');
    const last = (end?.messages as { role: string; stopReason?: string }[] | undefined)?.at(-1);
    assert.equal(last?.stopReason, 'aborted');
    // the session file pi kept is one `stallguard scan` reads, and finds the same loop in
    const scanned = stallguard(run.scratch, ['scan', '--json'])
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { agent: string; format: string; stalls: { action: string }[] });
    assert.deepEqual(
      scanned.map((s) => [s.agent, s.format]),
      [['pi', 'pi-session']],
    );
    assert.deepEqual(scanned[0]!.stalls.map((s) => s.action).slice(0, 1), ['nudge']);
    assert.ok(scanned[0]!.stalls.some((s) => s.action === 'stop'));
  });
});
