import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../types.ts';
import { detectAgent } from '../detect.ts';
import { codexDialect } from './dialect.ts';
import { parseCodex } from './parse.ts';
import { renderCodex } from './render.ts';
import { type Answer, firstWhere, Hook, sample, stuckAgent } from '../../../test/support/hook.ts';

// Contract tests on the payloads Codex CLI 0.171 really sent (test/fixtures/payloads/codex-*, captured by
// e2e/codex-payloads.e2e.test.ts).

describe('codex: reading the captured payloads', () => {
  const table: [string, string | undefined, Record<string, unknown>?][] = [
    ['codex-UserPromptSubmit.json', 'prompt', { task: '01a23169-b3e0-7ef3-af41-cf3e813a7c90', agent: { id: 'main' } }],
    ['codex-UserPromptSubmit-sub.json', undefined],
    [
      'codex-PreToolUse-Bash.json',
      'pre-tool',
      { call: { name: 'Bash', input: { command: 'npm test' }, id: 'call_e2e000002' } },
    ],
    [
      'codex-PreToolUse-Bash-sub.json',
      'pre-tool',
      { agent: { id: '01a23169-bab6-7743-a4f6-6c8d8aeb5c85', type: 'default' } },
    ],
    ['codex-PreToolUse-spawn_agent.json', 'spawn', { childType: 'default', agent: { id: 'main' } }],
    ['codex-PreToolUse-multi_agent_v1wait_agent.json', 'pre-tool'],
    [
      'codex-PostToolUse-Bash.json',
      'post-tool',
      {
        ok: null,
        output:
          '\n> proj@1.0.0 test\n> node test.js\n\nrunning tests\nFAIL add(2, 3): expected 5, got -1\n' +
          'FAIL mul(2, 3): expected 6, got 5\n0 passed, 2 failed\n',
      },
    ],
    [
      'codex-PostToolUse-Bash-sub.json',
      'post-tool',
      { agent: { id: '01a23169-bab6-7743-a4f6-6c8d8aeb5c85', type: 'default' } },
    ],
    ['codex-Stop.json', 'stop', { message: 'Main finished.', stopHookActive: false }],
    ['codex-SubagentStop-sub.json', 'stop', { agent: { id: '01a23169-bab6-7743-a4f6-6c8d8aeb5c85', type: 'default' } }],
    ['codex-SubagentStart-sub.json', undefined],
    ['codex-SessionStart.json', 'session-start'],
  ];
  for (const [file, kind, fields] of table) {
    it(`${file} -> ${kind ?? 'nothing to act on'}`, () => {
      const p = sample(file);
      const parsed = parseCodex(p);
      assert.equal(parsed?.event.kind, kind);
      if (parsed) {
        assert.equal(parsed.hookEvent, p.hook_event_name);
        // subagent hooks carry the parent's session id: one ledger for the whole tree
        assert.equal(parsed.event.session, p.session_id);
        for (const [k, v] of Object.entries(fields ?? {}))
          assert.deepEqual((parsed.event as unknown as Record<string, unknown>)[k], v, k);
      }
    });
  }

  it('a wait on a subagent, as the hook payload names it, is a poll: waiting, not an attempt', () => {
    const parsed = parseCodex(sample('codex-PostToolUse-multi_agent_v1wait_agent.json'));
    assert.equal(parsed?.event.kind, 'post-tool');
    if (parsed?.event.kind !== 'post-tool') return;
    const { call, output, ok } = parsed.event;
    assert.equal(codexDialect(call, output, ok).facts.cls, 'poll');
  });

  it("a hosted web search's status is no answer; a web_search tool that answers is read as it answers", () => {
    const search = { name: 'web_search', input: { type: 'search', query: 'nvm lts' } };
    for (const status of ['completed', '', 'searching'])
      assert.deepEqual(codexDialect(search, status, null).facts, { cls: 'search', hidden: true });
    assert.deepEqual(codexDialect(search, 'nvm 0.40.3: nvm install --lts', true).facts, { cls: 'search' });
  });

  it('detects Codex from the payload, and its SessionStart from the environment', () => {
    for (const file of table.map(([f]) => f).filter((f) => f !== 'codex-SessionStart.json'))
      assert.equal(detectAgent(sample(file), {}), 'codex', file);
    assert.equal(detectAgent(sample('codex-SessionStart.json'), { CODEX_MANAGED_BY_NPM: '1' }), 'codex');
  });
});

describe('codex: answers', () => {
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
    ['PostToolUse', nudge, { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: nudge.message } }],
    // continue:false does not end a Codex turn, but it puts the reason where the model reads the output
    ['PostToolUse', stop, { continue: false, stopReason: stop.message }],
    // no continue/stopReason on PreToolUse: Codex rejects them and then lets the call run
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
    [
      'PreToolUse',
      deny,
      {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: 'spawn refused',
        },
      },
    ],
    ['Stop', nudge, { decision: 'block', reason: nudge.message }],
    ['Stop', stop, undefined],
    ['UserPromptSubmit', nudge, undefined],
    ['PostToolUse', { action: 'allow', signals: [] }, undefined],
  ];
  for (const [hookEvent, d, expected] of table) {
    it(`${d.action} on ${hookEvent}`, () => {
      const out = renderCodex(at(hookEvent), d);
      assert.deepEqual(out ? JSON.parse(out) : undefined, expected);
    });
  }
});

describe('codex: a looping session through the hook', () => {
  const post = sample('codex-PostToolUse-Bash.json');
  const pre = sample('codex-PreToolUse-Bash.json');

  it(
    'nudges by the fifth identical run, stops at a second stall ' +
      'without continue:false on PreToolUse, then denies every call',
    () => {
      const hook = new Hook();
      hook.run({ ...sample('codex-UserPromptSubmit.json'), session_id: post.session_id, turn_id: post.turn_id });
      const denied = (a: Answer) =>
        (a?.hookSpecificOutput as Record<string, string> | undefined)?.permissionDecision === 'deny';
      const turns = stuckAgent(hook, pre, post, 20, denied);
      // five identical runs are always a stall; the judge may see it sooner
      const nudge = firstWhere(turns, (t) => t.after !== undefined);
      assert.ok(nudge >= 0 && nudge <= 4, `nudged at attempt ${nudge + 1}`);
      assert.match(
        (turns[nudge]!.after!.hookSpecificOutput as Record<string, string>).additionalContext!,
        /^stallguard: .*`Bash npm test` x\d \(same failure\)/,
      );
      const stop = firstWhere(turns, (t) => t.after?.continue === false);
      assert.ok(stop > nudge, `stopped at attempt ${stop + 1}`);
      assert.match(String(turns[stop]!.after!.stopReason), /stall: `Bash npm test` x\d/);
      // every PreToolUse answer is a plain deny: Codex rejects continue/stopReason there and runs the call
      for (const t of turns.filter((t) => t.before)) assert.deepEqual(Object.keys(t.before!), ['hookSpecificOutput']);
      const next = hook.answer({ ...pre, tool_input: { command: 'ls' } });
      assert.ok(denied(next));
      assert.match(
        String((next!.hookSpecificOutput as Record<string, string>).permissionDecisionReason),
        /stopped this agent for the person/,
      );
      // the agent may still end its turn
      assert.equal(
        hook.answer({ ...sample('codex-Stop.json'), session_id: post.session_id, turn_id: post.turn_id }),
        undefined,
      );
    },
  );

  it('keeps a subagent apart from its parent in the same session, and refuses its spawns', () => {
    const hook = new Hook();
    const sub = sample('codex-PostToolUse-Bash-sub.json');
    // two failing runs by the parent and two by the subagent, interleaved, are not four in a row for anyone
    for (let i = 0; i < 2; i++) {
      assert.equal(hook.answer({ ...post, session_id: sub.session_id, turn_id: 't-main' }), undefined);
      assert.equal(hook.answer(sub), undefined);
    }
    const spawn = { ...sample('codex-PreToolUse-spawn_agent.json'), agent_id: sub.agent_id, agent_type: 'default' };
    const refused = hook.answer(spawn)!.hookSpecificOutput as Record<string, string>;
    assert.equal(refused.permissionDecision, 'deny');
    assert.match(refused.permissionDecisionReason!, /may not start subagents/);
  });
});
