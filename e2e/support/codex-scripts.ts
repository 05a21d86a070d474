import { type ModelScript, repeatTurn, type Turn } from './model-script.ts';
import { SHELL } from './fake-openai.ts';

// The model's side of the Codex scenarios. `shell` becomes the shell tool Codex offers (exec_command).

export const NPM_TEST: Turn = [{ tool: SHELL, input: { command: 'npm test' } }];

/** A model that runs the same failing `npm test` 15 times, then gives up. */
export const LOOPING_NPM_TEST: ModelScript = {
  main: [...repeatTurn(15, NPM_TEST), [{ text: 'Giving up: the tests still fail.' }]],
};

/** Test-driven work: each fix changes what the test reports, until it passes. */
export const HEALTHY_TDD: ModelScript = {
  main: [
    NPM_TEST,
    [{ tool: SHELL, input: { command: 'cat src/math.js' } }],
    [{ tool: SHELL, input: { command: "sed -i 's/a - b/a + b/' src/math.js" } }],
    NPM_TEST,
    [{ tool: SHELL, input: { command: "sed -i '2s/a + b/a * b/' src/math.js" } }],
    NPM_TEST,
    [{ text: 'All tests pass.' }],
  ],
};
