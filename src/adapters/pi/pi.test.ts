import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classify } from '../../core/classify.ts';
import { describeEvent } from '../dialect.ts';
import { opencodeDialect } from '../opencode/dialect.ts';
import { piDialect } from './dialect.ts';
import { parsePi } from './parse.ts';
import { dialectCases } from '../../../test/support/dialect-cases.ts';

// Contract tests on the events pi 0.73.1 gives its extensions, as the stallguard extension passes them
// on: captured from the real CLI (a probe extension in a scripted session).

const who = { session: '01a23158-bb74-731a-9f7b-07b8bac75ad9', cwd: '/home/dev/proj' };
const FAILED =
  '\n> proj@1.0.0 test\n> node test.js\n\nrunning tests\n' +
  'FAIL add(2, 3): expected 5, got -1\n0 passed, 2 failed\n\n\nCommand exited with code 1';

const CAPTURED = {
  prompt: {
    hook: 'before_agent_start',
    ...who,
    event: { type: 'before_agent_start', prompt: 'fix the failing tests' },
  },
  call: {
    hook: 'tool_call',
    ...who,
    event: { type: 'tool_call', toolName: 'bash', toolCallId: 'toolu_01', input: { command: 'npm test' } },
  },
  result: {
    hook: 'tool_result',
    ...who,
    event: {
      type: 'tool_result',
      toolName: 'bash',
      toolCallId: 'toolu_01',
      input: { command: 'npm test' },
      content: [{ type: 'text', text: FAILED }],
      details: {},
      isError: true,
    },
  },
  end: {
    hook: 'agent_end',
    ...who,
    event: {
      type: 'agent_end',
      messages: [
        { role: 'user', content: 'fix' },
        { role: 'assistant', content: [{ type: 'text', text: 'Giving up.' }], stopReason: 'stop' },
      ],
    },
  },
};

describe('pi: reading what the extension hands over', () => {
  it('the prompt starts a task', () => {
    const e = parsePi(CAPTURED.prompt)!.event;
    assert.deepEqual(
      [e.kind, e.kind === 'prompt' && e.prompt, e.session, e.agent],
      ['prompt', 'fix the failing tests', who.session, { id: 'main' }],
    );
  });

  it('a call before it runs, and its result, failed when pi says isError', () => {
    const pre = parsePi(CAPTURED.call)!.event;
    assert.deepEqual(pre.kind === 'pre-tool' && pre.call, {
      name: 'bash',
      input: { command: 'npm test' },
      id: 'toolu_01',
    });
    const post = parsePi(CAPTURED.result)!.event;
    assert.deepEqual(post.kind === 'post-tool' && [post.ok, post.output], [false, FAILED]);
    const ok = parsePi({ ...CAPTURED.result, event: { ...CAPTURED.result.event, isError: false } })!.event;
    assert.equal(ok.kind === 'post-tool' && ok.ok, true);
  });

  it('an edit whose text is not in the file was rejected', () => {
    const edit = {
      toolName: 'edit',
      toolCallId: 'e1',
      input: { path: 'src/math.js', edits: [{ oldText: 'zzz', newText: 'y' }] },
      isError: true,
    };
    // read through pi's dialect, as the extension's path does
    const read = (p: Record<string, unknown>) => describeEvent(parsePi(p)!.event, piDialect);
    const e = read({
      ...CAPTURED.result,
      event: {
        ...CAPTURED.result.event,
        ...edit,
        content: [
          {
            type: 'text',
            text:
              'Could not find the exact text in src/math.js. The old text ' +
              'must match exactly including all whitespace and newlines.',
          },
        ],
      },
    });
    assert.deepEqual(e.kind === 'post-tool' && [e.ok, e.facts], [false, { cls: 'edit', rejected: true }]);
    const failing = read(CAPTURED.result);
    assert.deepEqual(failing.kind === 'post-tool' && failing.facts, { cls: 'exec', command: 'npm test' });
  });

  it('the end of the run carries its closing text', () => {
    const e = parsePi(CAPTURED.end)!.event;
    assert.deepEqual([e.kind, e.kind === 'stop' && e.message], ['stop', 'Giving up.']);
  });

  it('ignores what it cannot act on', () => {
    for (const p of [
      { ...CAPTURED.call, hook: 'turn_end' },
      { ...CAPTURED.call, session: undefined },
      { ...CAPTURED.call, event: {} },
      {},
    ])
      assert.equal(parsePi(p), undefined);
  });
});

describe('pi: the dialect (its tools and texts, read in 0.73.1)', () => {
  dialectCases(piDialect, [
    [
      'an edit whose text is there twice',
      'edit',
      { path: 'src/a.js', edits: [{ oldText: 'x', newText: 'y' }] },
      'Found 2 occurrences of the text in src/a.js. The text must ' +
        'be unique. Please provide more context to make it unique.',
      false,
      { facts: { cls: 'edit', rejected: true } },
    ],
    [
      'an edit that changed nothing',
      'edit',
      { path: 'src/a.js', edits: [{ oldText: 'x', newText: 'x' }] },
      'No changes made to src/a.js. The replacements produced identical content.',
      false,
      { facts: { cls: 'edit', rejected: true } },
    ],
    [
      'a search that found nothing',
      'grep',
      { pattern: 'nope' },
      'No matches found',
      false,
      { facts: { cls: 'search', empty: true } },
    ],
    [
      'a command that printed nothing',
      'bash',
      { command: 'true' },
      '(no output)',
      true,
      { facts: { cls: 'exec', command: 'true', empty: true } },
    ],
    [
      'a call with arguments its tool cannot take',
      'read',
      { file: 'a.js' },
      'Validation failed for tool "read":\n  - path: must have required property',
      false,
      { facts: { cls: 'read', malformed: true } },
    ],
  ]);
});

describe("pi's and opencode's tools are classified like the other agents', through their dialects", () => {
  const pi = (name: string, input: unknown) =>
    classify({ name, input }, piDialect({ name, input }, '', true).facts).cls;
  const opencode = (name: string, input: unknown) =>
    classify({ name, input }, opencodeDialect({ name, input }, '', true).facts).cls;
  const table: [string, string, typeof pi, Record<string, unknown>, string][] = [
    ['pi', 'read', pi, { path: 'src/math.js' }, 'read'],
    ['pi', 'ls', pi, { path: 'src' }, 'read'],
    ['opencode', 'list', opencode, { path: 'src' }, 'read'],
    ['pi', 'grep', pi, { pattern: 'add' }, 'search'],
    ['pi', 'find', pi, { pattern: '*.ts' }, 'search'],
    ['opencode', 'glob', opencode, { pattern: '*.ts' }, 'search'],
    ['opencode', 'webfetch', opencode, { url: 'https://example.com' }, 'read'],
    ['pi', 'edit', pi, { path: 'src/math.js', edits: [{ oldText: 'a - b', newText: 'a + b' }] }, 'edit'],
    ['pi', 'write', pi, { path: 'src/new.js', content: 'x' }, 'edit'],
    ['opencode', 'write', opencode, { filePath: 'src/new.js', content: 'x' }, 'edit'],
    ['pi', 'bash', pi, { command: 'npm test' }, 'test'],
    ['opencode', 'bash', opencode, { command: 'npm test', description: 'run tests' }, 'test'],
    ['opencode', 'task', opencode, { prompt: 'look', subagent_type: 'general' }, 'spawn'],
    ['opencode', 'todowrite', opencode, { todos: [] }, 'bookkeeping'],
  ];
  for (const [agent, tool, cls, input, expected] of table)
    it(`${agent}'s ${tool} is ${expected}`, () => assert.equal(cls(tool, input), expected));
});
