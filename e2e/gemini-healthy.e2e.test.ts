import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { HEALTHY_TDD } from './support/gemini-scripts.ts';
import { ensureGemini, geminiScenario, geminiToolResults } from './support/gemini-session.ts';
import { observedCalls } from './support/ledger-view.ts';
import { scratchEnv } from './support/scratch.ts';

const { label } = ensureGemini();

test(`${label}: healthy test-driven work is never touched`, { timeout: 180_000 }, async () => {
  await geminiScenario({ name: 'gemini-healthy', mode: 'enforce', script: HEALTHY_TDD }, (run) => {
    const results = geminiToolResults(run);
    console.log(`${label}: healthy work left alone (${results.length} calls, ${(run.ms / 1000).toFixed(1)} s)`);
    assert.equal(run.hookErrors, '');
    assert.equal(run.code, 0);
    assert.match(run.installedSettings, /hook-client\.sh gemini .*--agent gemini --serve-port \d+ # stallguard/);
    assert.equal(observedCalls(run.ledger).get('main'), 6);

    const tests = results
      .filter((_, i) => [0, 3, 5].includes(i))
      .map((r) => /\d+ passed, \d+ failed/.exec(r.output ?? '')?.[0]);
    assert.deepEqual(tests, ['0 passed, 2 failed', '1 passed, 1 failed', '2 passed, 0 failed']);
    execFileSync('npm', ['test', '--silent'], {
      cwd: run.scratch.project,
      env: scratchEnv(run.scratch),
      stdio: 'ignore',
    });

    assert.ok(!run.requests.some((r) => JSON.stringify(r).includes('stallguard:')));
    assert.ok(!run.ledger.some((l) => l.t === 'd'));
  });
});
