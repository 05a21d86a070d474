import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { HEALTHY_TDD } from './support/qwen-scripts.ts';
import { ensureQwen, qwenScenario, qwenToolResults } from './support/qwen-session.ts';
import { observedCalls } from './support/ledger-view.ts';
import { scratchEnv } from './support/scratch.ts';

const { label } = ensureQwen();

test(`${label}: healthy test-driven work is never touched (hook in the project's .qwen/settings.json)`, { timeout: 180_000 }, async () => {
  await qwenScenario({ name: 'qwen-healthy', mode: 'enforce', scope: 'project', script: HEALTHY_TDD }, (run) => {
    const results = qwenToolResults(run);
    console.log(`${label}: healthy work left alone (${results.length} calls, ${(run.ms / 1000).toFixed(1)} s)`);
    assert.equal(run.hookErrors, '');
    assert.equal(run.code, 0);
    assert.match(run.installedSettings, /--agent qwen # stallguard/);
    assert.equal(observedCalls(run.ledger).get('main'), 6);

    const tests = [0, 3, 5].map((i) => /\d+ passed, \d+ failed/.exec(results[i] ?? '')?.[0]);
    assert.deepEqual(tests, ['0 passed, 2 failed', '1 passed, 1 failed', '2 passed, 0 failed']);
    execFileSync('npm', ['test', '--silent'], { cwd: run.scratch.project, env: scratchEnv(run.scratch), stdio: 'ignore' });

    assert.ok(!run.requests.some((r) => /stallguard(:| stopped)/.test(JSON.stringify(r))));
    assert.ok(!run.ledger.some((l) => l.t === 'd'));
  });
});
