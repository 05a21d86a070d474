import type { ModelScript, Turn } from './model-script.ts';

// The model's side of the Gemini scenarios, in Gemini CLI's tool names.

function shell(command: string, description: string): Turn {
  return [{ tool: 'run_shell_command', input: { command, description } }];
}

/**
 * A model that runs the same failing `npm test` 15 times, then gives up. It words its description a little
 * differently each time, as models do: Gemini CLI's own loop check counts identical calls, description
 * included, so it stays quiet, while stallguard knows the description is the model's comment.
 */
export const LOOPING_NPM_TEST: ModelScript = {
  main: [
    ...Array.from({ length: 15 }, (_, i) => shell('npm test', `Run the tests (attempt ${i + 1})`)),
    [{ text: 'Giving up: the tests still fail.' }],
  ],
};

/** Test-driven work: each fix changes what the test reports, until it passes. */
export const HEALTHY_TDD: ModelScript = {
  main: [
    shell('npm test', 'Run the tests'),
    shell('cat src/math.js', 'Read the module'),
    shell("sed -i 's/a - b/a + b/' src/math.js", 'Fix add'),
    shell('npm test', 'Run the tests'),
    shell("sed -i '2s/a + b/a * b/' src/math.js", 'Fix mul'),
    shell('npm test', 'Run the tests'),
    [{ text: 'All tests pass.' }],
  ],
};
