import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OPENCODE } from './support/plugin-agents.ts';
import { checkNudgedThenStopped } from './support/plugin-checks.ts';
import { loopingNpmTest } from './support/plugin-scripts.ts';
import { ensureAgent, pluginScenario } from './support/plugin-session.ts';
import { scratchEnv, stallguard } from './support/scratch.ts';

const { label } = ensureAgent(OPENCODE);

test(`${label}: the plugin nudges a looping npm test, refuses its repeat, then aborts the session`, {
  timeout: 180_000,
}, async () => {
  await pluginScenario(OPENCODE)(
    { name: 'opencode-looping', mode: 'enforce', script: loopingNpmTest(OPENCODE) },
    (run) => {
      const calls = run.events
        .filter((e) => e.type === 'tool_use')
        .map((e) => (e.part as { state: { status: string; error?: string } }).state);
      // the call that was stopped ran too, but the abort ended the turn before opencode reported it
      const ran = calls.filter((s) => s.status === 'completed').length + 1;
      console.log(
        `${label}: looping npm test: ${ran} calls ran, ${calls.filter((c) => c.status === 'error').length} refused, then aborted (${(run.ms / 1000).toFixed(1)} s)`,
      );
      assert.match(run.installedPlugin, /^export \{ StallguardPlugin \} from ".*\/dist\/opencode-plugin\.js";$/m);
      checkNudgedThenStopped(run, ran);
      // a refused call is an error part carrying stallguard's reason; the session ended on the abort
      for (const s of calls.filter((c) => c.status === 'error'))
        assert.match(s.error!, /^stallguard: this call repeats the loop/);
      assert.deepEqual(run.events.at(-1)?.error, { name: 'MessageAbortedError', data: { message: 'Aborted' } });
      // opencode keeps the session in its database; `opencode export` writes it out, and scan reads that
      const exported = join(run.scratch.root, 'export.json');
      const out = spawnSync(run.client.command, [...run.client.prefix, 'export', String(run.events[0]!.sessionID)], {
        cwd: run.scratch.project,
        env: scratchEnv(run.scratch, OPENCODE.env),
        encoding: 'utf8',
        timeout: 60_000,
      });
      writeFileSync(exported, out.stdout);
      const scanned = stallguard(run.scratch, ['scan', exported, '--json'])
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { agent: string; format: string; stalls: { action: string }[] });
      assert.deepEqual(
        scanned.map((s) => [s.agent, s.format]),
        [['opencode', 'opencode-export']],
      );
      assert.deepEqual(scanned[0]!.stalls.map((s) => s.action).slice(0, 1), ['nudge']);
    },
  );
});
