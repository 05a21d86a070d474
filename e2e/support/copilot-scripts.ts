import { type ModelScript, repeatTurn, type Turn } from './model-script.ts';

// The model's side of the Copilot CLI scenarios, in Copilot's tool names (the tool set it offers a Claude
// model). `/PROJ` stands for the scratch project.

export const NPM_TEST: Turn = [{ tool: 'bash', input: { command: 'npm test', description: 'Run the tests' } }];

/** A model that runs the same failing `npm test` 15 times, then gives up. */
export const LOOPING_NPM_TEST: ModelScript = {
  main: [...repeatTurn(15, NPM_TEST), [{ text: 'Giving up: the tests still fail.' }]],
};

/** Test-driven work: each edit changes what the test reports, until it passes. */
export const HEALTHY_TDD: ModelScript = {
  main: [
    NPM_TEST,
    [{ tool: 'view', input: { path: '/PROJ/src/math.js' } }],
    [
      {
        tool: 'edit',
        input: {
          path: '/PROJ/src/math.js',
          old_str: 'exports.add = (a, b) => a - b;',
          new_str: 'exports.add = (a, b) => a + b;',
        },
      },
    ],
    NPM_TEST,
    [
      {
        tool: 'edit',
        input: {
          path: '/PROJ/src/math.js',
          old_str: 'exports.mul = (a, b) => a + b;',
          new_str: 'exports.mul = (a, b) => a * b;',
        },
      },
    ],
    NPM_TEST,
    [{ text: 'All tests pass.' }],
  ],
};
