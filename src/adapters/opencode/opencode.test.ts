import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../types.ts';
import { describeEvent } from '../dialect.ts';
import { pluginAnswer } from '../plugin-answer.ts';
import { opencodeDialect } from './dialect.ts';
import { parseOpencode } from './parse.ts';
import { dialectCases } from '../../../test/support/dialect-cases.ts';

// Contract tests on what opencode 1.18.33 hands its plugins, as the stallguard plugin passes it on:
// the hook inputs and outputs were captured from the real binary (a probe plugin in a scripted session).

const who = { session: 'ses_dcea839f3ffeqHAQ1m12uwZLAV', agent: { id: 'main' }, cwd: '/home/dev/proj' };
const NPM_TEST_OUTPUT =
  '\n> proj@1.0.0 test\n> node test.js\n\nrunning tests\nFAIL add(2, 3): expected 5, got -1\n' +
  'FAIL mul(2, 3): expected 6, got 5\n0 passed, 2 failed\n';

const CAPTURED = {
  chatMessage: {
    hook: 'chat.message',
    ...who,
    input: { sessionID: who.session },
    output: { message: { role: 'user' }, parts: [{ type: 'text', text: 'fix the failing tests' }] },
  },
  beforeBash: {
    hook: 'tool.execute.before',
    ...who,
    input: { tool: 'bash', sessionID: who.session, callID: 'toolu_01' },
    output: { args: { command: 'npm test', description: 'run tests' } },
  },
  afterBash: {
    hook: 'tool.execute.after',
    ...who,
    input: {
      tool: 'bash',
      sessionID: who.session,
      callID: 'toolu_01',
      args: { command: 'npm test', description: 'run tests' },
    },
    output: {
      title: 'npm test',
      output: NPM_TEST_OUTPUT,
      metadata: { output: NPM_TEST_OUTPUT, exit: 1, truncated: false },
    },
  },
  beforeTask: {
    hook: 'tool.execute.before',
    ...who,
    input: { tool: 'task', sessionID: who.session, callID: 'toolu_05' },
    output: { args: { description: 'look', prompt: 'run the tests', subagent_type: 'general' } },
  },
  editError: {
    hook: 'tool.error',
    ...who,
    input: {
      tool: 'edit',
      callID: 'toolu_03',
      args: { filePath: '/home/dev/proj/src/math.js', oldString: 'zzz', newString: 'yyy' },
    },
    output: {
      error:
        'Could not find oldString in the file. It must match ' +
        'exactly, including whitespace, indentation, and line endings.',
    },
  },
};

/** The event as the engine gets it: read through opencode's dialect, as the hook's path does. */
const read = (p: Record<string, unknown>) => describeEvent(parseOpencode(p)!.event, opencodeDialect);

describe('opencode: reading what the plugin hands over', () => {
  it('a new user message in the main session starts a task', () => {
    const e = parseOpencode(CAPTURED.chatMessage)!.event;
    assert.deepEqual(
      [e.kind, e.kind === 'prompt' && e.prompt, e.session, e.cwd],
      ['prompt', 'fix the failing tests', who.session, '/home/dev/proj'],
    );
  });

  it("a subagent's task message is not the person's prompt", () => {
    assert.equal(parseOpencode({ ...CAPTURED.chatMessage, agent: { id: 'ses_child', type: 'general' } }), undefined);
  });

  it('a shell call before it runs, and after, failed by its exit code', () => {
    const pre = parseOpencode(CAPTURED.beforeBash)!.event;
    assert.deepEqual(pre.kind === 'pre-tool' && pre.call, {
      name: 'bash',
      input: { command: 'npm test', description: 'run tests' },
      id: 'toolu_01',
    });
    const post = parseOpencode(CAPTURED.afterBash)!.event;
    assert.equal(post.kind === 'post-tool' && post.ok, false);
    assert.equal(post.kind === 'post-tool' && post.output, NPM_TEST_OUTPUT);
    const passed = parseOpencode({
      ...CAPTURED.afterBash,
      output: { ...CAPTURED.afterBash.output, metadata: { exit: 0 } },
    })!.event;
    assert.equal(passed.kind === 'post-tool' && passed.ok, true);
  });

  it('the task tool starts a subagent of the type it asks for', () => {
    const e = parseOpencode(CAPTURED.beforeTask)!.event;
    assert.deepEqual([e.kind, e.kind === 'spawn' && e.childType], ['spawn', 'general']);
  });

  it('a call that threw is a failure with its error as the result; an edit it could not place, a rejected one', () => {
    const e = read(CAPTURED.editError);
    assert.equal(e.kind === 'post-tool' && e.ok, false);
    assert.match(String(e.kind === 'post-tool' && e.output), /^Could not find oldString/);
    assert.deepEqual(e.kind === 'post-tool' && e.facts, { cls: 'edit', rejected: true });
    const missing = read({
      ...CAPTURED.editError,
      input: { ...CAPTURED.editError.input, tool: 'read' },
      output: { error: 'File not found: /home/dev/proj/nofile.js' },
    });
    assert.deepEqual(missing.kind === 'post-tool' && missing.facts, { cls: 'read' });
  });

  it('its to-do list is bookkeeping', () => {
    const e = read({
      ...CAPTURED.afterBash,
      input: { ...CAPTURED.afterBash.input, tool: 'todowrite', args: { todos: [] } },
      output: { title: '1 todo', output: '[]', metadata: {} },
    });
    assert.deepEqual(e.kind === 'post-tool' && [e.ok, e.facts], [true, { cls: 'bookkeeping', bookkeeping: true }]);
  });

  it('a subagent call keeps the agent the plugin names', () => {
    const e = parseOpencode({ ...CAPTURED.beforeBash, agent: { id: 'ses_child', type: 'general' } })!.event;
    assert.deepEqual(e.agent, { id: 'ses_child', type: 'general' });
  });

  it('ignores what it cannot act on', () => {
    for (const p of [
      { ...CAPTURED.beforeBash, hook: 'chat.params' },
      { ...CAPTURED.beforeBash, session: '' },
      { ...CAPTURED.beforeBash, agent: {} },
      { ...CAPTURED.beforeBash, input: {} },
      {},
    ])
      assert.equal(parseOpencode(p), undefined);
  });
});

describe('opencode: the dialect (its tools and texts, read in 1.18.33)', () => {
  dialectCases(opencodeDialect, [
    [
      'an edit that would change nothing',
      'edit',
      { filePath: '/p/a.js', oldString: 'x', newString: 'x' },
      'No changes to apply: oldString and newString are identical.',
      false,
      { facts: { cls: 'edit', rejected: true } },
    ],
    [
      'an edit whose oldString is there twice',
      'edit',
      { filePath: '/p/a.js', oldString: 'x', newString: 'y' },
      'Found multiple matches for oldString. Provide more surrounding context to make the match unique.',
      false,
      { facts: { cls: 'edit', rejected: true } },
    ],
    [
      'a call the person refused',
      'bash',
      { command: 'rm -rf build' },
      'The user rejected permission to use this specific tool call.',
      false,
      { facts: { cls: 'exec', command: 'rm -rf build', refused: true } },
    ],
    [
      'a call with arguments its tool cannot take',
      'invalid',
      { tool: 'edit', error: 'filePath: expected string' },
      'The arguments provided to the tool are invalid: filePath: expected string',
      true,
      { facts: { malformed: true } },
    ],
    [
      'a search that found nothing',
      'grep',
      { pattern: 'nope' },
      'No files found',
      true,
      { facts: { cls: 'search', empty: true } },
    ],
    ['a page fetched', 'webfetch', { url: 'https://example.com' }, '<html>', true, { facts: { cls: 'read' } }],
  ]);
});

describe('in-process plugins: what each decision becomes', () => {
  const nudge: Decision = {
    action: 'nudge',
    code: 'STALL',
    message: 'stallguard: the same call ran 3 times',
    signals: [],
  };
  const deny: Decision = {
    action: 'deny',
    code: 'REPEAT_DENIED',
    message: 'stallguard: this call repeats the loop',
    signals: [],
  };
  const stop: Decision = {
    action: 'stop',
    code: 'STALL_AGAIN',
    message: 'stallguard stopped this agent for the person',
    stopReason: 'stall: x, twice',
    signals: [],
  };
  const table: [string, Parameters<typeof pluginAnswer>[0], Decision, unknown][] = [
    ['a nudge after a call is text beside its result', 'post-tool', nudge, { tell: nudge.message }],
    ['a stop after a call tells the model and ends the turn', 'post-tool', stop, { tell: stop.message, abort: true }],
    ['a deny before a call refuses it', 'pre-tool', deny, { refuse: deny.message }],
    ['a stop before a call refuses it and ends the turn', 'pre-tool', stop, { refuse: stop.message, abort: true }],
    ['a refused spawn is a refused call', 'spawn', deny, { refuse: deny.message }],
    ['a nudge at the end of a turn is a follow-up message', 'stop', nudge, { tell: nudge.message }],
    ['nothing to do on an allowed call', 'post-tool', { action: 'allow', signals: [] }, undefined],
    ['nothing on a prompt', 'prompt', nudge, undefined],
  ];
  for (const [what, kind, d, expected] of table) it(what, () => assert.deepEqual(pluginAnswer(kind, d), expected));
});
