import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PI } from './support/plugin-agents.ts';
import { checkUntouched } from './support/plugin-checks.ts';
import { healthyTdd } from './support/plugin-scripts.ts';
import { ensureAgent, pluginScenario } from './support/plugin-session.ts';

const { label } = ensureAgent(PI);

test(`${label}: healthy test-driven work is never touched by the extension`, { timeout: 180_000 }, async () => {
  await pluginScenario(PI)({ name: 'pi-healthy', mode: 'enforce', script: healthyTdd(PI) }, (run) => {
    console.log(`${label}: healthy work left alone (${(run.ms / 1000).toFixed(1)} s)`);
    assert.equal(run.code, 0);
    checkUntouched(run);
  });
});
