import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { HEALTHY_TDD } from './support/codex-scripts.ts';
import { codexScenario, codexToolResults, ensureCodex } from './support/codex-session.ts';
import { observedCalls } from './support/ledger-view.ts';
import { scratchEnv } from './support/scratch.ts';

const { label } = ensureCodex();

test(`${label}: healthy test-driven work is never touched (hook in config.toml's [[hooks.*]] tables)`, {
  timeout: 180_000,
}, async () => {
  await codexScenario(
    { name: 'codex-healthy', mode: 'enforce', hooksIn: 'config.toml', script: HEALTHY_TDD },
    (run) => {
      const results = codexToolResults(run);
      console.log(`${label}: healthy work left alone (${results.length} calls, ${(run.ms / 1000).toFixed(1)} s)`);
      assert.equal(run.hookErrors, '');
      assert.equal(run.code, 0);
      // the hook was registered after the provider settings, which stayed, and saw every call
      assert.match(
        run.installedHooks,
        /^model = "gpt-fake"\n[\s\S]*\n# >>> stallguard[\s\S]*\[\[hooks\.PostToolUse\.hooks\]\]\ntype = "command"\ncommand = "\[ -f [^"]*hook-client\.sh \] && \. [^"]*hook-client\.sh codex (?:[^"\\]|\\.)*--agent codex --serve-port \d+ # stallguard"/,
      );
      assert.equal(observedCalls(run.ledger).get('main'), 6);

      // the test output changed with each fix, and the work really happened
      const tests = results
        .filter((_, i) => [0, 3, 5].includes(i))
        .map((r) => /\d+ passed, \d+ failed/.exec(r.output)?.[0]);
      assert.deepEqual(tests, ['0 passed, 2 failed', '1 passed, 1 failed', '2 passed, 0 failed']);
      execFileSync('npm', ['test', '--silent'], {
        cwd: run.scratch.project,
        env: scratchEnv(run.scratch),
        stdio: 'ignore',
      });

      // nothing from stallguard reached the model, and it decided nothing
      assert.ok(!run.requests.some((r) => JSON.stringify(r).includes('stallguard:')));
      assert.ok(!run.ledger.some((l) => l.t === 'd'));
    },
  );
});
