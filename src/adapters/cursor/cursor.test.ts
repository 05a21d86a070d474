import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../types.ts';
import { detectAgent } from '../detect.ts';
import { parseCursor } from './parse.ts';
import { renderCursor } from './render.ts';
import { firstWhere, Hook, stuckAgent } from '../../../test/support/hook.ts';

// Contract tests on Cursor's documented payloads (../shared/reference/agent-hooks.md §4): the fields every
// hook gets, plus each event's own, in the older [CU-A] and newer [CU-B] versions of the docs.

const common = {
  conversation_id: 'conv-1',
  generation_id: 'gen-1',
  model: 'claude-4.5-sonnet',
  cursor_version: '1.7.2',
  workspace_roots: ['/home/dev/proj'],
  user_email: null,
  transcript_path: null,
};
const pre = {
  ...common,
  hook_event_name: 'preToolUse',
  tool_name: 'Shell',
  tool_input: { command: 'npm test' },
  tool_use_id: 'tu-1',
  cwd: '/home/dev/proj',
  agent_message: '',
};
const post = {
  ...pre,
  hook_event_name: 'postToolUse',
  tool_output: '{"output":"1 passed, 1 failed","exitCode":1}',
  duration: 312,
};
const failure = {
  ...pre,
  hook_event_name: 'postToolUseFailure',
  error_message: 'Command timed out',
  failure_type: 'timeout',
  duration: 30000,
  is_interrupt: false,
};
const subagentB = {
  ...common,
  hook_event_name: 'subagentStart',
  subagent_id: 'sub-9',
  subagent_type: 'explore',
  task: 'find the parser',
  parent_conversation_id: 'conv-1',
  tool_call_id: 'tc-4',
  subagent_model: 'fast',
  is_parallel_worker: false,
};
const subagentA = {
  ...common,
  hook_event_name: 'subagentStart',
  subagent_type: 'generalPurpose',
  prompt: 'find the parser',
  model: 'fast',
};

describe('cursor: reading the documented payloads', () => {
  const table: [string, Record<string, unknown>, string | undefined, Record<string, unknown>?][] = [
    [
      'beforeSubmitPrompt',
      { ...common, hook_event_name: 'beforeSubmitPrompt', prompt: 'fix the tests', attachments: [] },
      'prompt',
      { task: 'gen-1', session: 'conv-1' },
    ],
    [
      'preToolUse',
      pre,
      'pre-tool',
      { call: { name: 'Shell', input: { command: 'npm test' }, id: 'tu-1' }, cwd: '/home/dev/proj' },
    ],
    [
      'preToolUse with MCP input as a JSON string',
      { ...pre, tool_name: 'MCP:search', tool_input: '{"q":"x"}' },
      'pre-tool',
      { call: { name: 'MCP:search', input: { q: 'x' }, id: 'tu-1' } },
    ],
    [
      'postToolUse, a non-zero exit',
      post,
      'post-tool',
      { ok: false, output: { output: '1 passed, 1 failed', exitCode: 1 } },
    ],
    ['postToolUse, success', { ...post, tool_output: '{"output":"ok","exitCode":0}' }, 'post-tool', { ok: true }],
    ['postToolUseFailure', failure, 'post-tool', { ok: false, output: 'Command timed out' }],
    ['postToolUseFailure by interrupt', { ...failure, is_interrupt: true }, undefined],
    ['subagentStart [CU-B]', subagentB, 'spawn', { childType: 'explore', agent: { id: 'main' }, session: 'conv-1' }],
    ['subagentStart [CU-A]', subagentA, 'spawn', { childType: 'generalPurpose' }],
    [
      'a call inside a subagent',
      { ...pre, conversation_id: 'conv-sub', parent_conversation_id: 'conv-1', subagent_type: 'explore' },
      'pre-tool',
      { session: 'conv-1', agent: { id: 'conv-sub', type: 'explore' } },
    ],
    [
      'stop',
      { ...common, hook_event_name: 'stop', status: 'completed', loop_count: 0 },
      'stop',
      { stopHookActive: false },
    ],
    [
      'stop after a follow-up',
      { ...common, hook_event_name: 'stop', status: 'completed', loop_count: 1 },
      'stop',
      { stopHookActive: true },
    ],
    [
      'sessionStart',
      {
        ...common,
        hook_event_name: 'sessionStart',
        session_id: 'conv-1',
        is_background_agent: false,
        composer_mode: 'agent',
      },
      'session-start',
    ],
    [
      'beforeShellExecution (preToolUse carries it)',
      { ...common, hook_event_name: 'beforeShellExecution', command: 'npm test', cwd: '/home/dev/proj' },
      undefined,
    ],
  ];
  for (const [name, p, kind, fields] of table) {
    it(`${name} -> ${kind ?? 'nothing to act on'}`, () => {
      const parsed = parseCursor(p);
      assert.equal(parsed?.event.kind, kind);
      for (const [k, v] of Object.entries(fields ?? {}))
        assert.deepEqual((parsed!.event as unknown as Record<string, unknown>)[k], v, k);
      assert.equal(
        detectAgent(p, { CLAUDE_PROJECT_DIR: '/home/dev/proj', CURSOR_PROJECT_DIR: '/home/dev/proj' }),
        'cursor',
      );
    });
  }
});

describe('cursor: answers in the newer dialect', () => {
  const nudge: Decision = { action: 'nudge', message: 'stallguard: the same call ran 5 times', signals: [] };
  const deny: Decision = { action: 'deny', message: 'spawn refused', signals: [] };
  const stop: Decision = {
    action: 'stop',
    message: 'stallguard stopped this agent',
    stopReason: 'stall: x, twice',
    signals: [],
  };
  const at = (hookEvent: string) => ({
    event: { kind: 'stop', session: 's', agent: { id: 'main' } } as const,
    hookEvent,
  });
  const table: [string, Decision, unknown][] = [
    ['postToolUse', nudge, { additional_context: nudge.message }],
    ['postToolUseFailure', nudge, { additional_context: nudge.message }],
    ['postToolUse', stop, { additional_context: stop.message }],
    ['preToolUse', stop, { permission: 'deny', user_message: 'stall: x, twice', agent_message: stop.message }],
    ['subagentStart', deny, { permission: 'deny', user_message: 'spawn refused', agent_message: 'spawn refused' }],
    ['stop', nudge, { followup_message: nudge.message }],
    ['stop', stop, undefined],
    ['beforeSubmitPrompt', nudge, undefined],
  ];
  for (const [hookEvent, d, expected] of table) {
    it(`${d.action} on ${hookEvent}`, () => {
      const out = renderCursor(at(hookEvent), d);
      assert.deepEqual(out ? JSON.parse(out) : undefined, expected);
    });
  }
});

describe('cursor: a looping session through the hook', () => {
  it('nudges after the tool result, then denies every call once stopped', () => {
    const hook = new Hook();
    hook.run({ ...common, hook_event_name: 'beforeSubmitPrompt', prompt: 'fix the tests' });
    const turns = stuckAgent(hook, pre, post, 20, (a) => a?.permission === 'deny');
    const nudge = firstWhere(turns, (t) => t.after !== undefined);
    assert.ok(nudge >= 0 && nudge <= 4, `nudged at attempt ${nudge + 1}`);
    assert.match(
      String(turns[nudge]!.after!.additional_context),
      /^stallguard: .*`Shell npm test` x\d \(same failure\)/,
    );
    const stop = firstWhere(turns, (t) => /stopped this agent/.test(String(t.after?.additional_context)));
    assert.ok(stop > nudge, `stopped at attempt ${stop + 1}`);
    assert.equal(hook.answer({ ...pre, tool_input: { command: 'git status' } })!.permission, 'deny');
    // the next user message is a new generation: a new task
    assert.equal(hook.answer({ ...pre, generation_id: 'gen-2' }), undefined);
  });

  it('refuses a subagent past the spawn cap, at subagentStart', () => {
    const hook = new Hook({ spawnCap: 1 });
    assert.equal(hook.answer(subagentB), undefined);
    // a result between them: the second subagent is another round of delegation, not the same response's
    hook.answer(post);
    const refused = hook.answer({ ...subagentB, subagent_id: 'sub-10' })!;
    assert.equal(refused.permission, 'deny');
    assert.match(String(refused.agent_message), /the limit is 1/);
  });
});
