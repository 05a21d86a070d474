import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureClaudeCode } from './support/claude-code.ts';
import { LOOPING_NPM_TEST } from './support/claude-scripts.ts';
import { claudeScenario, hookOutputs, toolCalls } from './support/claude-session.ts';
import { ledgerDecisions } from './support/ledger-view.ts';
import { freePort } from '../test/support/free-port.ts';

// install --daemon: Claude Code's http hook to `stallguard serve`, with the command hook beside it. The
// daemon is not running when the session starts: the command hooks do the work and start it, then the
// http hooks take over and the commands stand aside. The loop is caught exactly as with the command hook
// alone (claude-looping.e2e.test.ts): the two paths share one session log.

const { label } = ensureClaudeCode();

test(`${label}: with the daemon, a looping npm test is nudged and stopped as with the command hook`, {
  timeout: 180_000,
}, async () => {
  const port = freePort();
  await claudeScenario(
    {
      name: 'daemon',
      mode: 'enforce',
      script: LOOPING_NPM_TEST,
      installArgs: ['install', '--daemon', '--port', String(port)],
    },
    (run) => {
      const daemonFile = join(run.scratch.stallguardHome, 'serve.pid');
      const started = existsSync(daemonFile);
      const pid = started ? Number(readFileSync(daemonFile, 'utf8').split(' ')[0]) : undefined;
      try {
        const calls = toolCalls(run, 'main');
        console.log(
          `${label}: daemon install, ${run.result.terminal_reason} after ${calls.length} calls (${(run.ms / 1000).toFixed(1)} s)`,
        );
        assert.equal(run.hookErrors, '');
        const responses = run.stream.filter((e) => e.type === 'system' && e.subtype === 'hook_response');
        // http hooks report the status as their exit code: the first one finds no daemon yet, the later ones are served
        assert.ok(
          responses.filter((e) => e.exit_code === 200).length >= calls.length,
          'the daemon answered the http hooks',
        );
        assert.deepEqual(
          responses.filter((e) => e.exit_code !== 200 && e.exit_code !== 0 && e.outcome !== 'error'),
          [],
        );
        assert.ok(
          responses.every((e) => e.exit_code !== 0 || e.stderr === ''),
          'the command hooks print nothing on stderr',
        );
        assert.ok(started, 'the first command hook started the daemon');
        assert.deepEqual(
          ledgerDecisions(run.ledger).map((d) => [d.code, d.afterCalls]),
          [
            ['STALL', 3],
            ['REPEAT_DENIED', 3],
            ['STALL_AGAIN', 6],
          ],
        );
        assert.equal(run.result.terminal_reason, 'hook_stopped');
        // every call that ran observed once: the command hooks stood aside while the daemon answered (a
        // denied call never runs, so it has no result to observe)
        const observed = run.ledger.filter((l) => l.t === 'o' && l.o.step.k === 'call').length;
        assert.equal(observed, calls.length - (run.result.permission_denials?.length ?? 0));
        const stops = hookOutputs(run).filter((h) => h.output.continue === false);
        assert.ok(stops.length > 0, 'the stop reached Claude Code');
      } finally {
        if (pid) process.kill(pid);
      }
    },
  );
});
