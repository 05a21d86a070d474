import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classify } from '../../core/classify.ts';
import { parsePi } from './parse.ts';

// Contract tests on the events pi 0.73.1 gives its extensions, as the stallguard extension passes them
// on: captured from the real CLI (a probe extension in a scripted session).

const who = { session: '01a23158-bb74-731a-9f7b-07b8bac75ad9', cwd: '/home/dev/proj' };
const FAILED = '\n> proj@1.0.0 test\n> node test.js\n\nrunning tests\nFAIL add(2, 3): expected 5, got -1\n0 passed, 2 failed\n\n\nCommand exited with code 1';

const CAPTURED = {
  prompt: { hook: 'before_agent_start', ...who, event: { type: 'before_agent_start', prompt: 'fix the failing tests' } },
  call: { hook: 'tool_call', ...who, event: { type: 'tool_call', toolName: 'bash', toolCallId: 'toolu_01', input: { command: 'npm test' } } },
  result: { hook: 'tool_result', ...who, event: { type: 'tool_result', toolName: 'bash', toolCallId: 'toolu_01', input: { command: 'npm test' }, content: [{ type: 'text', text: FAILED }], details: {}, isError: true } },
  end: {
    hook: 'agent_end',
    ...who,
    event: { type: 'agent_end', messages: [{ role: 'user', content: 'fix' }, { role: 'assistant', content: [{ type: 'text', text: 'Giving up.' }], stopReason: 'stop' }] },
  },
};

describe('pi: reading what the extension hands over', () => {
  it('the prompt starts a task', () => {
    const e = parsePi(CAPTURED.prompt)!.event;
    assert.deepEqual([e.kind, e.kind === 'prompt' && e.prompt, e.session, e.agent], ['prompt', 'fix the failing tests', who.session, { id: 'main' }]);
  });

  it('a call before it runs, and its result, failed when pi says isError', () => {
    const pre = parsePi(CAPTURED.call)!.event;
    assert.deepEqual(pre.kind === 'pre-tool' && pre.call, { name: 'bash', input: { command: 'npm test' }, id: 'toolu_01' });
    const post = parsePi(CAPTURED.result)!.event;
    assert.deepEqual(post.kind === 'post-tool' && [post.ok, post.output], [false, FAILED]);
    const ok = parsePi({ ...CAPTURED.result, event: { ...CAPTURED.result.event, isError: false } })!.event;
    assert.equal(ok.kind === 'post-tool' && ok.ok, true);
  });

  it('an edit whose text is not in the file was rejected', () => {
    const edit = { toolName: 'edit', toolCallId: 'e1', input: { path: 'src/math.js', edits: [{ oldText: 'zzz', newText: 'y' }] }, isError: true };
    const e = parsePi({ ...CAPTURED.result, event: { ...CAPTURED.result.event, ...edit, content: [{ type: 'text', text: 'Could not find the exact text in src/math.js. The old text must match exactly including all whitespace and newlines.' }] } })!.event;
    assert.deepEqual(e.kind === 'post-tool' && [e.ok, e.facts], [false, { rejected: true }]);
    assert.equal(parsePi(CAPTURED.result)!.event.kind === 'post-tool' && 'facts' in parsePi(CAPTURED.result)!.event, false);
  });

  it('the end of the run carries its closing text', () => {
    const e = parsePi(CAPTURED.end)!.event;
    assert.deepEqual([e.kind, e.kind === 'stop' && e.message], ['stop', 'Giving up.']);
  });

  it('ignores what it cannot act on', () => {
    for (const p of [{ ...CAPTURED.call, hook: 'turn_end' }, { ...CAPTURED.call, session: undefined }, { ...CAPTURED.call, event: {} }, {}]) assert.equal(parsePi(p), undefined);
  });
});

describe("pi's and opencode's tools are classified like the other agents'", () => {
  const table: [string, Record<string, unknown>, string][] = [
    ['read', { path: 'src/math.js' }, 'read'],
    ['ls', { path: 'src' }, 'read'],
    ['list', { path: 'src' }, 'read'],
    ['grep', { pattern: 'add' }, 'search'],
    ['find', { pattern: '*.ts' }, 'search'],
    ['glob', { pattern: '*.ts' }, 'search'],
    ['edit', { path: 'src/math.js', edits: [{ oldText: 'a - b', newText: 'a + b' }] }, 'edit'],
    ['write', { path: 'src/new.js', content: 'x' }, 'edit'],
    ['bash', { command: 'npm test' }, 'test'],
    ['task', { prompt: 'look', subagent_type: 'general' }, 'spawn'],
  ];
  for (const [tool, input, cls] of table) it(`${tool} is ${cls}`, () => assert.equal(classify(tool, input).cls, cls));
});
