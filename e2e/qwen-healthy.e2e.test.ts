import { test } from 'node:test';
import { HEALTHY_TDD } from './support/qwen-scripts.ts';
import { ensureQwen, qwenScenario } from './support/qwen-session.ts';
import { checkHealthyTdd, toolResults } from './support/chat-session.ts';

const { label } = ensureQwen();

test(`${label}: healthy test-driven work is never touched (hook in the project's .qwen/settings.json)`, {
  timeout: 180_000,
}, async () => {
  await qwenScenario({ name: 'qwen-healthy', mode: 'enforce', scope: 'project', script: HEALTHY_TDD }, (run) => {
    console.log(
      `${label}: healthy work left alone (${toolResults(run).length} calls, ${(run.ms / 1000).toFixed(1)} s)`,
    );
    checkHealthyTdd(run, 'qwen');
  });
});
