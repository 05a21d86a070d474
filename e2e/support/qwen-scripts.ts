import type { ModelScript, Turn } from './model-script.ts';

// The model's side of the Qwen Code scenarios, in Qwen's tool names. `/PROJ` stands for the scratch project.

export const NPM_TEST: Turn = [
  { tool: 'run_shell_command', input: { command: 'npm test', description: 'Run the tests' } },
];

/**
 * A model that runs the same failing `npm test` 15 times, then gives up. It words its description a little
 * differently each time, as models do: Qwen Code's own loop check (5 identical calls in a row, always on)
 * compares the whole call, description included, so it stays quiet, while stallguard knows the description
 * is the model's comment.
 */
export const LOOPING_NPM_TEST: ModelScript = {
  main: [
    ...Array.from(
      { length: 15 },
      (_, i): Turn => [
        { tool: 'run_shell_command', input: { command: 'npm test', description: `Run the tests (attempt ${i + 1})` } },
      ],
    ),
    [{ text: 'Giving up: the tests still fail.' }],
  ],
};

/** Test-driven work: each edit changes what the test reports, until it passes. */
export const HEALTHY_TDD: ModelScript = {
  main: [
    NPM_TEST,
    [{ tool: 'read_file', input: { file_path: '/PROJ/src/math.js' } }],
    [
      {
        tool: 'edit',
        input: {
          file_path: '/PROJ/src/math.js',
          old_string: 'exports.add = (a, b) => a - b;',
          new_string: 'exports.add = (a, b) => a + b;',
        },
      },
    ],
    NPM_TEST,
    [
      {
        tool: 'edit',
        input: {
          file_path: '/PROJ/src/math.js',
          old_string: 'exports.mul = (a, b) => a + b;',
          new_string: 'exports.mul = (a, b) => a * b;',
        },
      },
    ],
    NPM_TEST,
    [{ text: 'All tests pass.' }],
  ],
};
