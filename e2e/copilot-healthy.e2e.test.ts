import { test } from 'node:test';
import { HEALTHY_TDD } from './support/copilot-scripts.ts';
import { ensureCopilot, copilotScenario } from './support/copilot-session.ts';
import { checkHealthyTdd, toolResults } from './support/chat-session.ts';

const { label } = ensureCopilot();

test(`${label}: healthy test-driven work is never touched (hook in the project's .github/hooks)`, {
  timeout: 180_000,
}, async () => {
  await copilotScenario({ name: 'copilot-healthy', mode: 'enforce', scope: 'project', script: HEALTHY_TDD }, (run) => {
    console.log(
      `${label}: healthy work left alone (${toolResults(run).length} calls, ${(run.ms / 1000).toFixed(1)} s)`,
    );
    checkHealthyTdd(run, 'copilot');
  });
});
