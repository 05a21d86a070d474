import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../types.ts';
import { detectAgent } from '../detect.ts';
import { copilotEvent, parseCopilot } from './parse.ts';
import { renderCopilot } from './render.ts';
import { firstWhere, Hook, stuckAgent } from '../../../test/support/hook.ts';

// Contract tests on Copilot CLI's documented payloads (the CLI hooks reference): the camelCase dialect,
// which does not name the event, and the snake_case dialect of hooks registered under PascalCase names.

const base = { sessionId: 'cp-1', timestamp: 1_780_000_000_000, cwd: '/home/dev/proj' };
const pre = { ...base, toolName: 'bash', toolArgs: { command: 'npm test' } };
const post = { ...pre, toolResult: { resultType: 'success', textResultForLlm: '1 passed, 1 failed' } };
const failure = { ...pre, error: 'Command failed with exit code 1: 1 passed, 1 failed' };

describe('copilot: reading the documented payloads', () => {
  const table: [string, Record<string, unknown>, string | undefined, Record<string, unknown>?][] = [
    ['userPromptSubmitted', { ...base, prompt: 'fix the tests' }, 'prompt', { session: 'cp-1' }],
    ['preToolUse', pre, 'pre-tool', { call: { name: 'bash', input: { command: 'npm test' } } }],
    ['preToolUse, toolArgs as a JSON string (older docs)', { ...pre, toolArgs: '{"command":"npm test"}' }, 'pre-tool', { call: { name: 'bash', input: { command: 'npm test' } } }],
    ['preToolUse of the task tool', { ...pre, toolName: 'task', toolArgs: { agent_type: 'explore', prompt: 'look' } }, 'spawn', { childType: 'explore' }],
    ['postToolUse', post, 'post-tool', { ok: true, output: '1 passed, 1 failed' }],
    ['postToolUseFailure', failure, 'post-tool', { ok: false, output: failure.error }],
    ['agentStop', { ...base, transcriptPath: '/t', stopReason: 'end_turn' }, 'stop'],
    ['subagentStop', { ...base, transcriptPath: '/t', agentName: 'explore', stopReason: 'end_turn' }, 'stop', { agent: { id: 'explore', type: 'explore' } }],
    ['subagentStart (cannot block)', { ...base, transcriptPath: '/t', agentName: 'explore' }, undefined],
    ['sessionStart', { ...base, source: 'new' }, 'session-start'],
    ['sessionEnd', { ...base, reason: 'complete' }, 'session-end'],
    ['PreToolUse (snake_case)', { hook_event_name: 'PreToolUse', session_id: 'cp-1', timestamp: '2026-11-29T20:00:00Z', cwd: '/p', tool_name: 'bash', tool_input: { command: 'ls' } }, 'pre-tool'],
    ['PostToolUse (snake_case), a failure', { hook_event_name: 'PostToolUse', session_id: 'cp-1', cwd: '/p', tool_name: 'bash', tool_input: { command: 'ls' }, tool_result: { result_type: 'failure', text_result_for_llm: 'no' } }, 'post-tool', { ok: false, output: 'no' }],
    ['PostToolUse (snake_case), denied', { hook_event_name: 'PostToolUse', session_id: 'cp-1', cwd: '/p', tool_name: 'bash', tool_input: {}, tool_result: { result_type: 'denied', text_result_for_llm: '' } }, undefined],
  ];
  for (const [name, p, kind, fields] of table) {
    it(`${name} -> ${kind ?? 'nothing to act on'}`, () => {
      const parsed = parseCopilot(p);
      assert.equal(parsed?.event.kind, kind);
      for (const [k, v] of Object.entries(fields ?? {})) assert.deepEqual((parsed!.event as unknown as Record<string, unknown>)[k], v, k);
    });
  }

  it('tells the camelCase events apart by their fields, and detects Copilot from them', () => {
    assert.deepEqual(
      [pre, post, failure, { ...base, prompt: 'x' }, { ...base, stopReason: 'end_turn' }].map(copilotEvent),
      ['preToolUse', 'postToolUse', 'postToolUseFailure', 'userPromptSubmitted', 'agentStop'],
    );
    for (const p of [pre, post, failure, { ...base, prompt: 'x' }]) assert.equal(detectAgent(p, {}), 'copilot');
  });
});

describe('copilot: answers', () => {
  const nudge: Decision = { action: 'nudge', message: 'stallguard: the same call ran 5 times', signals: [] };
  const stop: Decision = { action: 'stop', message: 'stallguard stopped this agent', stopReason: 'stall: x, twice', signals: [] };
  const at = (hookEvent: string) => ({ event: { kind: 'stop', session: 's', agent: { id: 'main' } } as const, hookEvent });
  const table: [string, Decision, unknown][] = [
    ['preToolUse', stop, { permissionDecision: 'deny', permissionDecisionReason: stop.message }],
    ['postToolUseFailure', nudge, { additionalContext: nudge.message }],
    ['postToolUseFailure', stop, { additionalContext: stop.message }],
    // honoured for SDK hooks only: a command hook has no channel there
    ['postToolUse', nudge, undefined],
    ['agentStop', nudge, { decision: 'block', reason: nudge.message }],
    ['agentStop', stop, undefined],
  ];
  for (const [hookEvent, d, expected] of table) {
    it(`${d.action} on ${hookEvent}`, () => {
      const out = renderCopilot(at(hookEvent), d);
      assert.deepEqual(out ? JSON.parse(out) : undefined, expected);
    });
  }
});

describe('copilot: a looping session through the hook', () => {
  it('nudges a failing loop as recovery guidance, then denies every call once stopped', () => {
    const hook = new Hook();
    hook.run({ ...base, prompt: 'fix the tests' });
    const turns = stuckAgent(hook, pre, failure, 20, (a) => a?.permissionDecision === 'deny');
    const nudge = firstWhere(turns, (t) => t.after !== undefined);
    assert.ok(nudge >= 0 && nudge <= 4, `nudged at attempt ${nudge + 1}`);
    assert.match(String(turns[nudge]!.after!.additionalContext), /^stallguard: .*`bash npm test` x\d \(same failure\)/);
    const stop = firstWhere(turns, (t) => /stopped this agent/.test(String(t.after?.additionalContext)));
    assert.ok(stop > nudge, `stopped at attempt ${stop + 1}`);
    assert.equal(hook.answer({ ...pre, toolArgs: { command: 'ls' } })!.permissionDecision, 'deny');
  });

  it('answers the snake_case dialect when told it is Copilot', () => {
    const hook = new Hook({ spawnCap: 0 }, ['--agent', 'copilot']);
    const spawn = { hook_event_name: 'PreToolUse', session_id: 'cp-2', cwd: '/p', tool_name: 'task', tool_input: { agent_type: 'explore' } };
    assert.equal(hook.answer(spawn)!.permissionDecision, 'deny');
  });
});
