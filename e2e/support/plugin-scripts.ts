import { type ModelScript, repeatTurn } from './model-script.ts';
import type { PluginAgent } from './plugin-agents.ts';

// The model's side of the opencode and pi scenarios, in the agent's own shell tool.

/** A model that runs the same failing `npm test` 15 times, then gives up. */
export function loopingNpmTest(a: PluginAgent): ModelScript {
  return { main: [...repeatTurn(15, a.shell('npm test')), [{ text: 'Giving up: the tests still fail.' }]] };
}

/** Test-driven work: each fix changes what the test reports, until it passes. */
export function healthyTdd(a: PluginAgent): ModelScript {
  return {
    main: [
      a.shell('npm test'),
      a.shell('cat src/math.js'),
      a.shell("sed -i 's/a - b/a + b/' src/math.js"),
      a.shell('npm test'),
      a.shell("sed -i '2s/a + b/a * b/' src/math.js"),
      a.shell('npm test'),
      [{ text: 'All tests pass.' }],
    ],
  };
}
