import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../types.ts';
import { detectAgent } from '../detect.ts';
import { describeEvent } from '../dialect.ts';
import { copilotDialect } from './dialect.ts';
import { copilotEvent, parseCopilot } from './parse.ts';
import { renderCopilot } from './render.ts';
import { firstWhere, Hook, stuckAgent } from '../../../test/support/hook.ts';
import { dialectCases } from '../../../test/support/dialect-cases.ts';

// Contract tests on the payloads Copilot CLI 1.0.102 sent to a command hook registered under the camelCase
// event names (captured with the real CLI against a scripted model, paths shortened), and on the
// snake_case dialect of hooks registered under PascalCase names (the CLI hooks reference).

const base = { sessionId: 'cp-1', timestamp: 1_796_123_568_086, cwd: '/home/dev/proj' };
const pre = { ...base, toolName: 'bash', toolArgs: { command: 'npm test', description: 'run tests' } };
// a failing command is a successful call: the exit code is in the trailer of the result
const failing =
  '> proj@1.0.0 test\n> node test.js\n\nFAIL add(2, 3): expected 5, got -1\n' +
  '0 passed, 2 failed\n<shellId: 3 completed with exit code 1>';
const post = { ...pre, toolResult: { resultType: 'success', textResultForLlm: failing } };
const permission = {
  hookName: 'permissionRequest',
  ...base,
  toolName: 'bash',
  toolInput: { command: 'npm test' },
  permissionSuggestions: [],
};
const failure = {
  ...base,
  toolName: 'view',
  toolArgs: { path: '/home/dev/proj/nope.js' },
  error: 'Path does not exist',
};
const child = { sessionId: 'sub-1', agentId: 'sub-1', agentType: 'general-purpose', parentAgentId: 'cp-1' };

describe('copilot: reading the payloads', () => {
  const table: [string, Record<string, unknown>, string | undefined, Record<string, unknown>?][] = [
    ['userPromptSubmitted', { ...base, prompt: 'fix the tests' }, 'prompt', { session: 'cp-1' }],
    ['preToolUse', pre, 'pre-tool', { call: { name: 'bash', input: pre.toolArgs } }],
    [
      'preToolUse, toolArgs as a JSON string (older docs)',
      { ...pre, toolArgs: '{"command":"npm test"}' },
      'pre-tool',
      { call: { name: 'bash', input: { command: 'npm test' } } },
    ],
    [
      'preToolUse of the task tool',
      { ...pre, toolName: 'task', toolArgs: { agent_type: 'explore', prompt: 'look' } },
      'spawn',
      { childType: 'explore' },
    ],
    [
      'permissionRequest: the call again, after preToolUse let it through',
      permission,
      'pre-tool',
      { call: { name: 'bash', input: { command: 'npm test' } } },
    ],
    [
      'postToolUse of a command that exited 1: a failure, trailer taken off',
      post,
      'post-tool',
      { ok: false, output: failing.replace(/\n<shellId.*$/, '') },
    ],
    [
      'postToolUse of a command that exited 0',
      {
        ...post,
        toolResult: { resultType: 'success', textResultForLlm: 'ok\n<shellId: 0 completed with exit code 0>' },
      },
      'post-tool',
      { ok: true, output: 'ok' },
    ],
    [
      'postToolUse of a read',
      {
        ...base,
        toolName: 'view',
        toolArgs: { path: '/p/a.js' },
        toolResult: { resultType: 'success', textResultForLlm: 'x' },
      },
      'post-tool',
      { ok: true, output: 'x' },
    ],
    ['postToolUseFailure', failure, 'post-tool', { ok: false, output: 'Path does not exist' }],
    [
      'agentStop',
      { ...base, transcriptPath: '/t', stopReason: 'end_turn', stop_hook_active: true },
      'stop',
      { stopHookActive: true },
    ],
    [
      "subagentStop: the subagent, in its parent's session",
      {
        ...base,
        transcriptPath: '/t',
        agentId: 'sub-1',
        agentType: 'general-purpose',
        agentName: 'general-purpose',
        response: 'done',
        stopReason: 'end_turn',
      },
      'stop',
      { session: 'cp-1', agent: { id: 'sub-1', type: 'general-purpose' }, message: 'done' },
    ],
    [
      "a subagent's call: filed under its parent's session",
      { ...pre, ...child },
      'pre-tool',
      { session: 'cp-1', agent: { id: 'sub-1', type: 'general-purpose' } },
    ],
    [
      "a subagent's permission request carries the parent's session already",
      { ...permission, agentId: 'sub-1', agentType: 'general-purpose', parentAgentId: 'cp-1' },
      'pre-tool',
      { session: 'cp-1', agent: { id: 'sub-1', type: 'general-purpose' } },
    ],
    ["a subagent's task prompt (counted as its spawn)", { ...base, ...child, prompt: 'SUBTASK' }, undefined],
    [
      "a subagent's own agentStop (its subagentStop follows)",
      { ...base, ...child, transcriptPath: '/t', stopReason: 'end_turn' },
      undefined,
    ],
    ['subagentStart (cannot block)', { ...base, transcriptPath: '/t', agentName: 'explore' }, undefined],
    ['sessionStart', { ...base, source: 'new' }, 'session-start'],
    ['sessionEnd', { ...base, reason: 'complete' }, 'session-end'],
    [
      'PreToolUse (snake_case)',
      {
        hook_event_name: 'PreToolUse',
        session_id: 'cp-1',
        timestamp: '2026-11-29T20:00:00Z',
        cwd: '/p',
        tool_name: 'bash',
        tool_input: { command: 'ls' },
      },
      'pre-tool',
    ],
    [
      'PostToolUse (snake_case), a failure',
      {
        hook_event_name: 'PostToolUse',
        session_id: 'cp-1',
        cwd: '/p',
        tool_name: 'bash',
        tool_input: { command: 'ls' },
        tool_result: { result_type: 'failure', text_result_for_llm: 'no' },
      },
      'post-tool',
      { ok: false, output: 'no' },
    ],
    [
      'PostToolUse (snake_case), denied',
      {
        hook_event_name: 'PostToolUse',
        session_id: 'cp-1',
        cwd: '/p',
        tool_name: 'bash',
        tool_input: {},
        tool_result: { result_type: 'denied', text_result_for_llm: '' },
      },
      undefined,
    ],
  ];
  for (const [name, p, kind, fields] of table) {
    it(`${name} -> ${kind ?? 'nothing to act on'}`, () => {
      const parsed = parseCopilot(p);
      assert.equal(parsed?.event.kind, kind);
      // what the engine gets: the event read through Copilot's dialect, as the hook does
      const event = parsed && describeEvent(parsed.event, copilotDialect);
      for (const [k, v] of Object.entries(fields ?? {}))
        assert.deepEqual((event as unknown as Record<string, unknown>)[k], v, k);
    });
  }

  it('tells the camelCase events apart by their fields, and detects Copilot from them', () => {
    assert.deepEqual(
      [pre, post, failure, permission, { ...base, prompt: 'x' }, { ...base, stopReason: 'end_turn' }].map(copilotEvent),
      ['preToolUse', 'postToolUse', 'postToolUseFailure', 'permissionRequest', 'userPromptSubmitted', 'agentStop'],
    );
    for (const p of [pre, post, failure, permission, { ...base, prompt: 'x' }])
      assert.equal(detectAgent(p, {}), 'copilot');
  });
});

describe('copilot: the dialect (its tools and result texts, read in 1.0.102)', () => {
  dialectCases(copilotDialect, [
    [
      'a command that printed nothing but its trailer',
      'bash',
      { command: 'grep -r nope .' },
      '<shellId: 4 completed with exit code 1>',
      true,
      { ok: false, output: '', facts: { cls: 'exec', command: 'grep -r nope .', empty: true } },
    ],
    [
      "a detached command's trailer",
      'bash',
      { command: 'npm test' },
      'ok\n<detached command with shellId: 5 completed with exit code 0>',
      true,
      { ok: true, output: 'ok' },
    ],
    [
      'a trailer-like line inside the output is output',
      'bash',
      { command: 'cat log' },
      '<shellId: 1 completed with exit code 1>\nmore',
      true,
      { ok: true },
    ],
    [
      'an edit whose old_str is not in the file',
      'edit',
      { path: '/p/a.js', old_str: 'x', new_str: 'y' },
      'No match found: old_str not found in /p/a.js; no changes made; you might want to try again with correct old_str',
      false,
      { facts: { cls: 'edit', rejected: true } },
    ],
    [
      'an edit that would change nothing',
      'edit',
      { path: '/p/a.js', old_str: 'x', new_str: 'x' },
      'No changes made: old_str and new_str are the same',
      false,
      { facts: { cls: 'edit', rejected: true } },
    ],
    [
      'a call the person refused',
      'bash',
      { command: 'rm -rf build' },
      'The user rejected this tool call',
      false,
      { facts: { cls: 'exec', command: 'rm -rf build', refused: true } },
    ],
    [
      'a call without its arguments',
      'edit',
      { path: '/p/a.js' },
      'Invalid inputs: old_str is required',
      false,
      { facts: { cls: 'edit', malformed: true } },
    ],
    [
      'a search that found nothing',
      'grep',
      { pattern: 'nope' },
      'No matches found.',
      true,
      { facts: { cls: 'search', empty: true } },
    ],
    [
      'reading a background shell is waiting on it',
      'read_bash',
      { shellId: '3' },
      'still running',
      true,
      { facts: { cls: 'poll' } },
    ],
    [
      'its task list is bookkeeping',
      'update_todo',
      { todos: '- [ ] fix' },
      'ok',
      true,
      { facts: { cls: 'bookkeeping', bookkeeping: true } },
    ],
  ]);
});

describe('copilot: answers', () => {
  const nudge: Decision = { action: 'nudge', message: 'stallguard: the same call ran 5 times', signals: [] };
  const stop: Decision = {
    action: 'stop',
    message: 'stallguard stopped this agent',
    stopReason: 'stall: x, twice',
    signals: [],
  };
  const deny: Decision = { action: 'deny', message: 'stallguard: this call repeats the loop', signals: [] };
  const at = (hookEvent: string, tool = 'bash') => ({
    event: { kind: 'pre-tool', session: 's', agent: { id: 'main' }, call: { name: tool, input: {} } } as const,
    hookEvent,
  });
  const table: [string, string, Decision, unknown][] = [
    ['postToolUse', 'bash', nudge, { additionalContext: nudge.message }],
    ['postToolUse', 'bash', stop, { additionalContext: stop.message }],
    ['postToolUseFailure', 'view', nudge, { additionalContext: nudge.message }],
    ['preToolUse', 'bash', deny, { permissionDecision: 'deny', permissionDecisionReason: deny.message }],
    // a stopped agent's shell call goes on to permissionRequest, where it is ended
    ['preToolUse', 'bash', stop, undefined],
    ['permissionRequest', 'bash', stop, { behavior: 'deny', message: stop.message, interrupt: true }],
    // a read never reaches permissionRequest: denied here
    ['preToolUse', 'view', stop, { permissionDecision: 'deny', permissionDecisionReason: stop.message }],
    ['permissionRequest', 'bash', nudge, undefined],
    ['agentStop', 'bash', nudge, { decision: 'block', reason: nudge.message }],
    ['agentStop', 'bash', stop, undefined],
  ];
  for (const [hookEvent, tool, d, expected] of table) {
    it(`${d.action} on ${hookEvent} (${tool})`, () => {
      const out = renderCopilot(at(hookEvent, tool), d);
      assert.deepEqual(out ? JSON.parse(out) : undefined, expected);
    });
  }
});

describe('copilot: a looping session through the hook', () => {
  it('nudges a failing loop beside the result, then ends the agent at its next permission request', () => {
    const hook = new Hook();
    hook.run({ ...base, prompt: 'fix the tests' });
    // each attempt: preToolUse, permissionRequest (unless denied), the result
    const turns = stuckAgent(hook, pre, post, 20, (a) => a?.permissionDecision === 'deny');
    const nudge = firstWhere(turns, (t) => t.after !== undefined);
    assert.ok(nudge >= 0 && nudge <= 4, `nudged at attempt ${nudge + 1}`);
    assert.match(String(turns[nudge]!.after!.additionalContext), /^stallguard: .*`bash npm test` x\d \(same failure\)/);
    const stop = firstWhere(turns, (t) => /stopped this agent/.test(String(t.after?.additionalContext)));
    assert.ok(stop > nudge, `stopped at attempt ${stop + 1}`);
    // the next shell call passes preToolUse and is refused with interrupt:true at its permission request
    assert.equal(hook.answer(pre), undefined);
    assert.deepEqual(hook.answer(permission), {
      behavior: 'deny',
      message: String(hook.answer({ ...base, toolName: 'view', toolArgs: { path: '/p' } })!.permissionDecisionReason),
      interrupt: true,
    });
  });

  it('answers the snake_case dialect when told it is Copilot', () => {
    const hook = new Hook({ spawnCap: 0 }, ['--agent', 'copilot']);
    const spawn = {
      hook_event_name: 'PreToolUse',
      session_id: 'cp-2',
      cwd: '/p',
      tool_name: 'task',
      tool_input: { agent_type: 'explore' },
    };
    assert.equal(hook.answer(spawn)!.permissionDecision, 'deny');
  });
});
