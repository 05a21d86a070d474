import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../types.ts';
import { detectAgent } from '../detect.ts';
import { qwenDialect } from './dialect.ts';
import { parseQwen } from './parse.ts';
import { renderQwen } from './render.ts';
import { firstWhere, Hook, stuckAgent } from '../../../test/support/hook.ts';
import { dialectCases } from '../../../test/support/dialect-cases.ts';

// Contract tests on the payloads Qwen Code 0.24.4 sent to a command hook (captured with the real CLI
// against a scripted model, paths shortened).

const S = 'ab655930-5624-40d5-a201-64d002d87068';
const base = {
  session_id: S,
  transcript_path: `/home/dev/.qwen/projects/-home-dev-proj/chats/${S}.jsonl`,
  cwd: '/home/dev/proj',
  timestamp: '2026-12-01T11:20:38.123Z',
  permission_mode: 'yolo',
  prompt_id: `${S}########0`,
};
const shell = {
  tool_name: 'run_shell_command',
  tool_input: { command: 'npm test', description: 'run tests' },
  tool_use_id: 'toolu_1796124038090_3tzjvz66k',
  tool_call_id: 'call_1',
};
const output =
  'Command: npm test\nDirectory: (root)\nOutput: > proj@1.0.0 test\n' +
  '> node test.js\n\nFAIL add(2, 3): expected 5, got -1\n0 passed, 2 failed\n' +
  'Error: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: (none)';
const pre = { ...base, hook_event_name: 'PreToolUse', ...shell };
const failure = {
  ...base,
  hook_event_name: 'PostToolUseFailure',
  ...shell,
  error: output,
  is_interrupt: false,
  duration_ms: 754,
};
const query = {
  ...base,
  hook_event_name: 'UserPromptSubmit',
  prompt: 'fix the failing tests',
  submitted_prompt: 'fix the failing tests',
};
const continuation = { ...base, hook_event_name: 'UserPromptSubmit', prompt: '' };
const sub = { agent_id: 'general-purpose-call_1' };

describe('qwen: reading the payloads', () => {
  const table: [string, Record<string, unknown>, string | undefined, Record<string, unknown>?][] = [
    ['UserPromptSubmit of the query', query, 'prompt', { prompt: 'fix the failing tests', task: `${S}########0` }],
    [
      'UserPromptSubmit before the next model request: the end of a batch',
      continuation,
      'batch-end',
      { task: `${S}########0` },
    ],
    [
      "UserPromptSubmit of a Stop hook's continuation (its reason as the prompt)",
      { ...continuation, prompt: 'keep going' },
      'batch-end',
    ],
    [
      'PreToolUse',
      pre,
      'pre-tool',
      { call: { name: 'run_shell_command', input: shell.tool_input, id: shell.tool_use_id } },
    ],
    [
      'PreToolUse of the agent tool',
      { ...pre, tool_name: 'agent', tool_input: { description: 'd', prompt: 'p', subagent_type: 'Explore' } },
      'spawn',
      { childType: 'Explore' },
    ],
    [
      'PostToolUse',
      {
        ...base,
        hook_event_name: 'PostToolUse',
        tool_name: 'read_file',
        tool_input: { file_path: '/home/dev/proj/src/math.js' },
        tool_response: { llmContent: 'exports.add = 1;\n', returnDisplay: '' },
      },
      'post-tool',
      { ok: true },
    ],
    ['PostToolUseFailure of a failing command', failure, 'post-tool', { ok: false, output }],
    ['PostToolUseFailure of an interrupt (the person)', { ...failure, is_interrupt: true }, undefined],
    [
      'a subagent call: agent_id, same session',
      { ...pre, ...sub },
      'pre-tool',
      { session: S, agent: { id: 'general-purpose-call_1' } },
    ],
    [
      'SubagentStop',
      {
        ...base,
        ...sub,
        hook_event_name: 'SubagentStop',
        agent_type: 'general-purpose',
        stop_hook_active: false,
        last_assistant_message: 'sub done',
      },
      'stop',
      { agent: { id: 'general-purpose-call_1', type: 'general-purpose' }, message: 'sub done' },
    ],
    [
      'Stop',
      { ...base, hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'done' },
      'stop',
      { stopHookActive: true, message: 'done' },
    ],
    [
      "the main agent's PostToolBatch (its batch ends at the UserPromptSubmit after it)",
      { ...base, hook_event_name: 'PostToolBatch', tool_calls: [] },
      undefined,
    ],
    [
      "a subagent's PostToolBatch: the end of its batch",
      { ...base, ...sub, hook_event_name: 'PostToolBatch', tool_calls: [] },
      'batch-end',
      { agent: { id: 'general-purpose-call_1' } },
    ],
    ['SubagentStart', { ...base, ...sub, hook_event_name: 'SubagentStart', agent_type: 'general-purpose' }, undefined],
    [
      'SessionStart',
      { ...base, hook_event_name: 'SessionStart', source: 'startup', model: 'qwen3-coder-plus' },
      'session-start',
    ],
  ];
  for (const [name, p, kind, fields] of table) {
    it(`${name} -> ${kind ?? 'nothing to act on'}`, () => {
      const parsed = parseQwen(p);
      assert.equal(parsed?.event.kind, kind);
      for (const [k, v] of Object.entries(fields ?? {}))
        assert.deepEqual((parsed!.event as unknown as Record<string, unknown>)[k], v, k);
    });
  }

  it(
    'is told from Claude Code by its environment or its prompt ids, ' +
      'though it sets CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR too',
    () => {
      const env = {
        CLAUDE_PROJECT_DIR: '/p',
        GEMINI_PROJECT_DIR: '/p',
        QWEN_PROJECT_DIR: '/p',
        QWEN_CODE_SESSION_ID: S,
      };
      assert.equal(detectAgent({ ...base, hook_event_name: 'SessionStart' }, env), 'qwen');
      assert.equal(detectAgent(pre, {}), 'qwen');
    },
  );
});

describe('qwen: the dialect (its tools and result texts, read in 0.24.4)', () => {
  dialectCases(qwenDialect, [
    [
      'a failing command: the output and its error, without the labels',
      'run_shell_command',
      shell.tool_input,
      output,
      false,
      {
        ok: false,
        output: '> proj@1.0.0 test\n> node test.js\n\nFAIL add(2, 3): expected 5, got -1\n0 passed, 2 failed',
        facts: { cls: 'exec', command: 'npm test' },
      },
    ],
    [
      'a command that printed nothing',
      'run_shell_command',
      { command: 'grep -r nope .' },
      'Command: grep -r nope .\nDirectory: (root)\nOutput: (empty)\n' +
        'Error: (none)\nExit Code: 1\nSignal: (none)\nProcess Group PGID: 12',
      true,
      { ok: false, output: '', facts: { cls: 'exec', command: 'grep -r nope .', empty: true } },
    ],
    [
      'a fetched page its reader says lacks what was asked: found nothing',
      'web_fetch',
      { url: 'https://docs.example.com/api', prompt: 'What is the retry limit?' },
      'The documentation does not specify a retry limit for webhook deliveries.',
      true,
      { ok: true, facts: { cls: 'read', empty: true } },
    ],
    [
      'a fetched page that told what was asked',
      'web_fetch',
      { url: 'https://docs.example.com/api', prompt: 'What is the retry limit?' },
      'Deliveries are retried 5 times, with exponential backoff.',
      true,
      { ok: true, facts: { cls: 'read' } },
    ],
    [
      'an edit whose old_string is not in the file',
      'edit',
      { file_path: '/p/a.js', old_string: 'x', new_string: 'y' },
      'Failed to edit, 0 occurrences found for old_string in /p/a.js. No edits made.',
      false,
      { facts: { cls: 'edit', rejected: true } },
    ],
    [
      'an edit that would change nothing',
      'edit',
      { file_path: '/p/a.js', old_string: 'x', new_string: 'x' },
      'No changes to apply. The old_string and new_string are identical in file: /p/a.js',
      false,
      { facts: { cls: 'edit', rejected: true } },
    ],
    [
      'a call the permission rules refused',
      'run_shell_command',
      { command: 'rm -rf build' },
      'This "run_shell_command" invocation was denied by permission rules.',
      false,
      { facts: { cls: 'exec', command: 'rm -rf build', refused: true } },
    ],
    [
      'a tool that does not exist',
      'read_files',
      { path: '/p' },
      'Tool "read_files" not found in registry. Tools must use the exact names that are registered.',
      false,
      { facts: { malformed: true } },
    ],
    [
      'a search that found nothing',
      'grep_search',
      { pattern: 'nope' },
      {
        llmContent: 'No matches found for pattern "nope" in the workspace directory.',
        returnDisplay: 'No matches found',
      },
      true,
      { facts: { cls: 'search', empty: true } },
    ],
    ['a subagent', 'agent', { subagent_type: 'Explore', prompt: 'look' }, 'done', true, { facts: { cls: 'spawn' } }],
    [
      "the team's task list is bookkeeping",
      'task_create',
      { subject: 'fix', description: 'd' },
      'ok',
      true,
      { facts: { cls: 'bookkeeping', bookkeeping: true } },
    ],
    ['JavaScript in its runtime', 'exec', { source: '1 + 1' }, '2', true, { facts: { cls: 'exec' } }],
  ]);
});

describe('qwen: answers', () => {
  const nudge: Decision = { action: 'nudge', message: 'stallguard: the same call ran 5 times', signals: [] };
  const stop: Decision = {
    action: 'stop',
    message: 'stallguard stopped this agent',
    stopReason: 'stall: x, twice',
    signals: [],
  };
  const at = (hookEvent: string) => ({
    event: { kind: 'batch-end', session: 's', agent: { id: 'main' } } as const,
    hookEvent,
  });
  const context = (e: string, text: string) => ({ hookSpecificOutput: { hookEventName: e, additionalContext: text } });
  const table: [string, Decision, unknown][] = [
    ['PostToolUseFailure', nudge, context('PostToolUseFailure', nudge.message!)],
    ['PostToolUse', nudge, context('PostToolUse', nudge.message!)],
    // continue:false would only replace this one result: the reason goes beside it, and the turn ends next
    ['PostToolUseFailure', stop, context('PostToolUseFailure', stop.message!)],
    [
      'PreToolUse',
      stop,
      {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: stop.message,
        },
      },
    ],
    ['UserPromptSubmit', stop, { decision: 'block', reason: stop.stopReason }],
    ['UserPromptSubmit', nudge, undefined],
    ['Stop', nudge, { decision: 'block', reason: nudge.message }],
    ['Stop', stop, undefined],
  ];
  for (const [hookEvent, d, expected] of table) {
    it(`${d.action} on ${hookEvent}`, () => {
      const out = renderQwen(at(hookEvent), d);
      assert.deepEqual(out ? JSON.parse(out) : undefined, expected);
    });
  }
});

describe('qwen: a looping session through the hook', () => {
  it('nudges a failing loop beside the result, then ends the turn before the next model request', () => {
    const hook = new Hook();
    hook.run(query);
    const turns = stuckAgent(
      hook,
      pre,
      failure,
      20,
      (a) => (a?.hookSpecificOutput as Record<string, unknown> | undefined)?.permissionDecision === 'deny',
    );
    const said = (t: { after?: Record<string, unknown> }) =>
      String((t.after?.hookSpecificOutput as Record<string, unknown> | undefined)?.additionalContext ?? '');
    const nudge = firstWhere(turns, (t) => said(t) !== '');
    assert.ok(nudge >= 0 && nudge <= 4, `nudged at attempt ${nudge + 1}`);
    assert.match(said(turns[nudge]!), /^stallguard: .*`run_shell_command npm test` x\d \(same failure\)/);
    const stop = firstWhere(turns, (t) => /stopped this agent/.test(said(t)));
    assert.ok(stop > nudge, `stopped at attempt ${stop + 1}`);
    assert.deepEqual(Object.keys(hook.answer(continuation) ?? {}), ['decision', 'reason']);
    // as Qwen sends it, a continuation after every call: each call its own batch, the task never restarted
    const fresh = new Hook();
    fresh.run(query);
    const answers = Array.from({ length: 5 }, () => {
      fresh.run(pre);
      const after = said({ after: fresh.answer(failure) });
      assert.equal(fresh.answer(continuation), undefined);
      return after;
    });
    assert.ok(
      answers.some((a) => a !== ''),
      'nudged across continuations',
    );
    // a subagent's batches end at its PostToolBatch: its loop is caught the same way
    const subHook = new Hook();
    subHook.run(query);
    const subAnswers = Array.from({ length: 5 }, () => {
      subHook.run({ ...pre, ...sub });
      const after = said({ after: subHook.answer({ ...failure, ...sub }) });
      assert.equal(subHook.answer({ ...base, ...sub, hook_event_name: 'PostToolBatch', tool_calls: [] }), undefined);
      return after;
    });
    assert.ok(
      subAnswers.some((a) => a !== ''),
      'the subagent nudged',
    );
  });
});
