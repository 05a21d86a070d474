import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../types.ts';
import { canonicalOutput } from '../../core/canonical.ts';
import { detectAgent } from '../detect.ts';
import { geminiOk, parseGemini } from './parse.ts';
import { renderGemini } from './render.ts';
import { type Answer, firstWhere, Hook, sample } from '../../../test/support/hook.ts';

// Contract tests on the payloads Gemini CLI 0.61 really sent (test/fixtures/payloads/gemini-*, captured by
// e2e/gemini-payloads.e2e.test.ts).

const GEMINI_ENV = {
  GEMINI_SESSION_ID: '333faa51',
  GEMINI_PROJECT_DIR: '/home/dev/proj',
  CLAUDE_PROJECT_DIR: '/home/dev/proj',
};

describe('gemini: reading the captured payloads', () => {
  const table: [string, string | undefined, Record<string, unknown>?][] = [
    ['gemini-BeforeAgent.json', 'prompt', { prompt: 'fix the tests' }],
    [
      'gemini-BeforeTool-run_shell_command.json',
      'pre-tool',
      { call: { name: 'run_shell_command', input: { command: 'npm test', description: 'run' } } },
    ],
    ['gemini-AfterTool-run_shell_command.json', 'post-tool', { ok: false }],
    ['gemini-AfterAgent.json', 'stop', { message: 'Running tests.\nFinished.', stopHookActive: false }],
    ['gemini-SessionStart.json', 'session-start'],
    ['gemini-SessionEnd.json', 'session-end'],
    ['gemini-BeforeModel.json', undefined],
    ['gemini-AfterModel.json', undefined],
    ['gemini-BeforeToolSelection.json', undefined],
    ['gemini-PreCompress.json', undefined],
  ];
  for (const [file, kind, fields] of table) {
    it(`${file} -> ${kind ?? 'nothing to act on'}`, () => {
      const p = sample(file);
      const parsed = parseGemini(p);
      assert.equal(parsed?.event.kind, kind);
      if (!parsed) return;
      assert.equal(parsed.event.session, p.session_id);
      assert.deepEqual(parsed.event.agent, { id: 'main' });
      for (const [k, v] of Object.entries(fields ?? {}))
        assert.deepEqual((parsed.event as unknown as Record<string, unknown>)[k], v, k);
    });
  }

  it('detects Gemini, although it sets CLAUDE_PROJECT_DIR too', () => {
    for (const [file] of table) assert.equal(detectAgent(sample(file), GEMINI_ENV), 'gemini', file);
    // without the environment, its own event names still give it away
    assert.equal(
      detectAgent(sample('gemini-AfterTool-run_shell_command.json'), { CLAUDE_PROJECT_DIR: '/home/dev/proj' }),
      'gemini',
    );
  });

  it('reads success from the exit code a shell command reports, and failure from a tool error', () => {
    assert.equal(geminiOk({ llmContent: 'Output: ok\nExit Code: 0\nProcess Group PGID: 1' }), true);
    assert.equal(geminiOk({ llmContent: 'Output: no\nExit Code: 2\n' }), false);
    assert.equal(geminiOk({ llmContent: 'file contents', returnDisplay: '' }), true);
    assert.equal(geminiOk({ llmContent: '', error: { message: 'File not found' } }), false);
  });

  it('spawns a subagent through invoke_agent, judged before it runs', () => {
    const p = {
      ...sample('gemini-BeforeTool-run_shell_command.json'),
      tool_name: 'invoke_agent',
      tool_input: { agent_name: 'codebase_investigator', prompt: 'look' },
    };
    const parsed = parseGemini(p);
    assert.equal(parsed?.event.kind, 'spawn');
    assert.equal(parsed?.event.kind === 'spawn' && parsed.event.childType, 'codebase_investigator');
  });

  it('ignores the process group id, which changes on every shell call', () => {
    const out = sample('gemini-AfterTool-run_shell_command.json').tool_response as Record<string, string>;
    const again = { ...out, llmContent: out.llmContent!.replace(/PGID: \d+/, 'PGID: 99817') };
    assert.notEqual(out.llmContent, again.llmContent);
    assert.equal(canonicalOutput(out), canonicalOutput(again));
  });
});

describe('gemini: answers', () => {
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
    ['AfterTool', nudge, { hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: nudge.message } }],
    ['AfterTool', stop, { continue: false, stopReason: 'stall: x, twice' }],
    ['BeforeTool', deny, { decision: 'deny', reason: 'spawn refused' }],
    ['BeforeTool', stop, { decision: 'deny', reason: stop.message, continue: false, stopReason: 'stall: x, twice' }],
    ['AfterAgent', nudge, { decision: 'deny', reason: nudge.message }],
    ['AfterAgent', stop, undefined],
    ['BeforeAgent', nudge, undefined],
    ['AfterTool', { action: 'allow', signals: [] }, undefined],
  ];
  for (const [hookEvent, d, expected] of table) {
    it(`${d.action} on ${hookEvent}`, () => {
      const out = renderGemini(at(hookEvent), d);
      assert.deepEqual(out ? JSON.parse(out) : undefined, expected);
    });
  }
});

describe('gemini: a looping session through the hook', () => {
  it('nudges by the fifth identical run although each reports a new PGID, then ends the loop', () => {
    const hook = new Hook({}, [], GEMINI_ENV);
    const before = sample('gemini-BeforeTool-run_shell_command.json');
    const after = sample('gemini-AfterTool-run_shell_command.json');
    const response = after.tool_response as Record<string, string>;
    hook.run(sample('gemini-BeforeAgent.json'));
    const turns: { before: Answer; after: Answer }[] = [];
    for (let i = 0; i < 20; i++) {
      const b = hook.answer(before);
      const pgid = response.llmContent!.replace(/PGID: \d+/, `PGID: ${24156 + i * 7}`);
      turns.push({
        before: b,
        after:
          b?.decision === 'deny'
            ? undefined
            : hook.answer({ ...after, tool_response: { ...response, llmContent: pgid } }),
      });
    }
    const nudge = firstWhere(turns, (t) => t.after !== undefined);
    assert.ok(nudge >= 0 && nudge <= 4, `nudged at attempt ${nudge + 1}`);
    assert.match(
      (turns[nudge]!.after!.hookSpecificOutput as Record<string, string>).additionalContext!,
      /`run_shell_command npm test` x\d \(same failure\)/,
    );
    const stop = firstWhere(turns, (t) => t.after?.continue === false);
    assert.ok(stop > nudge, `stopped at attempt ${stop + 1}`);
    assert.match(
      String(turns[stop]!.after!.stopReason),
      /^stall: `run_shell_command npm test` x\d \(same failure\), twice in this task( \(.+\))?$/,
    );
    assert.equal(hook.answer(before)!.decision, 'deny');
    // a new prompt is a new task
    hook.run(sample('gemini-BeforeAgent.json'));
    assert.equal(hook.answer(before), undefined);
  });
});
