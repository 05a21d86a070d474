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

/** Marks a subagent's task prompt, so the fake model knows which script a conversation follows. */
export const SUB_MARKER = 'SUBAGENT-TASK';

/**
 * opencode's main agent delegates to a subagent (the task tool), which tries the same edit 15 times
 * against text the file does not hold; opencode rejects each one. The main agent then finishes.
 */
export const SUBAGENT_REJECTED_EDITS: ModelScript = {
  subMarker: SUB_MARKER,
  main: [
    [
      {
        tool: 'task',
        input: { description: 'Fix add', prompt: `${SUB_MARKER}: make add() add`, subagent_type: 'general' },
      },
    ],
    [{ text: 'MAIN-DONE: the subagent could not fix add().' }],
  ],
  sub: [
    ...repeatTurn(15, [
      { tool: 'edit', input: { filePath: 'src/math.js', oldString: 'return a - b;', newString: 'return a + b;' } },
    ]),
    [{ text: 'SUB-RESULT: the edit does not apply.' }],
  ],
};
