import { type ModelScript, repeatTurn, type Turn } from './model-script.ts';
import { PROJ } from './claude-session.ts';

// The model's side of each scenario, in Claude Code's tool names. `/PROJ` stands for the scratch project.

export const NPM_TEST: Turn = [{ tool: 'Bash', input: { command: 'npm test', description: 'Run the tests' } }];

/** Marks a subagent's task prompt, so the fake model knows which script a conversation follows. */
export const SUB_MARKER = 'SUBAGENT-TASK';

/** A model that runs the same failing `npm test` 15 times, then gives up. */
export const LOOPING_NPM_TEST: ModelScript = {
  main: [...repeatTurn(15, NPM_TEST), [{ text: 'Giving up: the tests still fail.' }]],
};

/** A model that reads the same unchanged file 12 times, then gives up: each call succeeds. */
export const REREADING: ModelScript = {
  main: [
    ...repeatTurn(12, [{ tool: 'Read', input: { file_path: `${PROJ}/src/math.js` } }]),
    [{ text: 'Done reading.' }],
  ],
};

/** Test-driven work: each edit changes what the test reports, until it passes. */
export const HEALTHY_TDD: ModelScript = {
  main: [
    NPM_TEST,
    [{ tool: 'Read', input: { file_path: `${PROJ}/src/math.js` } }],
    [
      {
        tool: 'Edit',
        input: {
          file_path: `${PROJ}/src/math.js`,
          old_string: 'exports.add = (a, b) => a - b;',
          new_string: 'exports.add = (a, b) => a + b;',
        },
      },
    ],
    NPM_TEST,
    [
      {
        tool: 'Edit',
        input: {
          file_path: `${PROJ}/src/math.js`,
          old_string: 'exports.mul = (a, b) => a + b;',
          new_string: 'exports.mul = (a, b) => a * b;',
        },
      },
    ],
    NPM_TEST,
    [{ text: 'All tests pass.' }],
  ],
};

function spawn(i: number): Turn {
  return [
    {
      tool: 'Agent',
      input: {
        description: `Check module ${i}`,
        prompt: `${SUB_MARKER}: check module ${i} and report`,
        subagent_type: 'general-purpose',
      },
    },
  ];
}

/** The main agent delegates 11 tasks, one after the other; each subagent answers at once. */
export const SPAWN_STORM: ModelScript = {
  subMarker: SUB_MARKER,
  main: [...Array.from({ length: 11 }, (_, i) => spawn(i + 1)), [{ text: 'Summary of the modules.' }]],
  sub: [[{ text: 'SUB-RESULT: module checked.' }]],
};

/** The main agent delegates 12 tasks in one turn (one round of delegation): Claude Code runs their hooks concurrently. */
export const PARALLEL_SPAWN_STORM: ModelScript = {
  subMarker: SUB_MARKER,
  main: [Array.from({ length: 12 }, (_, i) => spawn(i + 1)[0]!), [{ text: 'Summary of the modules.' }]],
  sub: [[{ text: 'SUB-RESULT: module checked.' }]],
};

/** A subagent runs the same failing `npm test` 15 times; the main agent then reads a file and finishes. */
export const LOOPING_SUBAGENT: ModelScript = {
  subMarker: SUB_MARKER,
  main: [
    [
      {
        tool: 'Agent',
        input: {
          description: 'Fix the tests',
          prompt: `${SUB_MARKER}: make npm test pass`,
          subagent_type: 'general-purpose',
        },
      },
    ],
    [{ tool: 'Read', input: { file_path: `${PROJ}/test.js` } }],
    [{ text: 'MAIN-DONE: the subagent could not fix the tests.' }],
  ],
  sub: [...repeatTurn(15, NPM_TEST), [{ text: 'SUB-RESULT: the tests still fail.' }]],
};

/**
 * An agent that backs the settings up (harmless: the settings are only read), then tries three ways to
 * switch the hook off. Each edit leaves a valid settings file: Claude Code validates settings edits itself,
 * before any hook, and refuses a schema-invalid one on its own. (An edit of the person's own settings
 * beside stallguard's cannot be shown here: Claude Code asks the person before any edit of its settings
 * files, and a -p run has no one to ask.)
 */
export const REMOVE_THE_HOOK: ModelScript = {
  main: [
    [{ tool: 'Read', input: { file_path: `${PROJ}/.claude/settings.local.json` } }],
    [
      {
        tool: 'Bash',
        input: {
          command: 'cp .claude/settings.local.json .claude/settings.local.json.bak-$(date +%Y%m%d)',
          description: 'Back up the settings',
        },
      },
    ],
    [
      {
        tool: 'Edit',
        input: {
          file_path: `${PROJ}/.claude/settings.local.json`,
          old_string: '{\n  "hooks": {',
          new_string: '{\n  "disableAllHooks": true,\n  "hooks": {',
        },
      },
    ],
    [{ tool: 'Write', input: { file_path: `${PROJ}/.claude/settings.local.json`, content: '{}\n' } }],
    [{ tool: 'Bash', input: { command: 'rm .claude/settings.local.json', description: 'Remove the hook settings' } }],
    [{ text: 'The hook settings could not be changed.' }],
  ],
};
