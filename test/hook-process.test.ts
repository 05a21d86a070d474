import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sample, tempHome } from './support/hook.ts';

// The bundled hook as agents run it: `node dist/hook.cjs --agent X`, one process per payload. With
// `repeat: 2` a stall takes two identical calls, so each agent's whole ladder (nudge, stop, deny) fits in a
// few processes.

const HOOK = join(process.cwd(), 'dist', 'hook.cjs');

function hook(home: string, payload: unknown, args: string[]): { stdout: string; status: number | null } {
  const env: NodeJS.ProcessEnv = { ...process.env, STALLGUARD_HOME: home, HOME: home };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.STALLGUARD_MODE;
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const r = spawnSync(process.execPath, [HOOK, ...args], { input, env, encoding: 'utf8', timeout: 10_000 });
  return { stdout: r.stdout.trim(), status: r.status };
}

interface Ladder {
  agent: string;
  prompt: Record<string, unknown>;
  pre: Record<string, unknown>;
  post: Record<string, unknown>;
  /** Where a stopped agent is refused, when not at `pre` (Copilot: the permission request after it). */
  next?: Record<string, unknown>;
  /** What the answer to the nudge, the stop and the next call look like. */
  nudged(a: Record<string, unknown>): boolean;
  stopped(a: Record<string, unknown>): boolean;
  denied(a: Record<string, unknown>): boolean;
}

const ctx = (a: Record<string, unknown>) =>
  (a.hookSpecificOutput as Record<string, string> | undefined)?.additionalContext ?? '';
const cursorBase = { conversation_id: 'c1', generation_id: 'g1', cursor_version: '1.7', workspace_roots: ['/p'] };
const copilotBase = { sessionId: 'cp1', timestamp: 1, cwd: '/p' };
const qwenBase = { session_id: 'q1', cwd: '/p', prompt_id: 'q1########0', transcript_path: '/t' };

const LADDERS: Ladder[] = [
  {
    agent: 'claude',
    prompt: sample('claude-UserPromptSubmit.json'),
    pre: sample('claude-PreToolUse-Bash.json'),
    // the fixtures of one agent come from one session (e2e/support/payload-capture.ts)
    post: sample('claude-PostToolUseFailure-Bash.json'),
    nudged: (a) => /x2/.test(ctx(a)),
    // continue:false is ignored on PostToolUseFailure; the deny that follows carries the stop
    stopped: (a) => /stopped this agent/.test(ctx(a)),
    denied: (a) => (a.hookSpecificOutput as Record<string, string> | undefined)?.permissionDecision === 'deny',
  },
  {
    agent: 'codex',
    prompt: sample('codex-UserPromptSubmit.json'),
    pre: sample('codex-PreToolUse-Bash.json'),
    post: sample('codex-PostToolUse-Bash.json'),
    nudged: (a) => /x2/.test(ctx(a)),
    stopped: (a) => a.continue === false,
    // no continue:false on PreToolUse: Codex rejects it and then runs the call
    denied: (a) =>
      (a.hookSpecificOutput as Record<string, string> | undefined)?.permissionDecision === 'deny' && !('continue' in a),
  },
  {
    agent: 'gemini',
    prompt: sample('gemini-BeforeAgent.json'),
    pre: sample('gemini-BeforeTool-run_shell_command.json'),
    post: sample('gemini-AfterTool-run_shell_command.json'),
    nudged: (a) => /x2/.test(ctx(a)),
    stopped: (a) => a.continue === false,
    denied: (a) => a.decision === 'deny',
  },
  {
    agent: 'cursor',
    prompt: { ...cursorBase, hook_event_name: 'beforeSubmitPrompt', prompt: 'fix' },
    pre: { ...cursorBase, hook_event_name: 'preToolUse', tool_name: 'Shell', tool_input: { command: 'npm test' } },
    post: {
      ...cursorBase,
      hook_event_name: 'postToolUseFailure',
      tool_name: 'Shell',
      tool_input: { command: 'npm test' },
      error_message: '1 failed',
    },
    nudged: (a) => /x2/.test(String(a.additional_context)),
    stopped: (a) => /stopped this agent/.test(String(a.additional_context)),
    denied: (a) => a.permission === 'deny',
  },
  {
    agent: 'copilot',
    prompt: { ...copilotBase, prompt: 'fix' },
    pre: { ...copilotBase, toolName: 'bash', toolArgs: { command: 'npm test' } },
    post: {
      ...copilotBase,
      toolName: 'bash',
      toolArgs: { command: 'npm test' },
      toolResult: { resultType: 'success', textResultForLlm: '1 failed\n<shellId: 0 completed with exit code 1>' },
    },
    next: { hookName: 'permissionRequest', ...copilotBase, toolName: 'bash', toolInput: { command: 'npm test' } },
    nudged: (a) => /x2/.test(String(a.additionalContext)),
    stopped: (a) => /stopped this agent/.test(String(a.additionalContext)),
    // the shell call a stopped agent makes next is refused at its permission request, which ends the agent
    denied: (a) => a.permissionDecision === 'deny' || (a.behavior === 'deny' && a.interrupt === true),
  },
  {
    agent: 'qwen',
    prompt: { ...qwenBase, hook_event_name: 'UserPromptSubmit', prompt: 'fix', submitted_prompt: 'fix' },
    pre: {
      ...qwenBase,
      hook_event_name: 'PreToolUse',
      tool_name: 'run_shell_command',
      tool_input: { command: 'npm test' },
    },
    post: {
      ...qwenBase,
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'run_shell_command',
      tool_input: { command: 'npm test' },
      error: 'Output: 1 failed\nExit Code: 1',
    },
    nudged: (a) => /x2/.test(ctx(a)),
    stopped: (a) => /stopped this agent/.test(ctx(a)),
    denied: (a) => (a.hookSpecificOutput as Record<string, string> | undefined)?.permissionDecision === 'deny',
  },
];

describe('node dist/hook.cjs --agent X', { skip: existsSync(HOOK) ? false : 'dist/hook.cjs is not built' }, () => {
  for (const l of LADDERS) {
    it(`${l.agent}: nudges, stops, then denies the next call`, () => {
      const home = tempHome({ repeat: 2 });
      const args = ['--agent', l.agent];
      assert.equal(hook(home, l.prompt, args).stdout, '');
      // an agent stuck on one call; a call the hook denies does not run and reports no result
      const answers: { before: string; after: string }[] = [];
      for (let i = 0; i < 8 && !answers.some((a) => a.after && l.stopped(JSON.parse(a.after))); i++) {
        const before = hook(home, l.pre, args).stdout;
        answers.push({ before, after: before && l.denied(JSON.parse(before)) ? '' : hook(home, l.post, args).stdout });
      }
      assert.equal(answers[0]!.after, '');
      assert.ok(l.nudged(JSON.parse(answers[1]!.after)), answers[1]!.after);
      assert.ok(l.stopped(JSON.parse(answers.at(-1)!.after)), JSON.stringify(answers));
      if (l.next) assert.equal(hook(home, l.pre, args).stdout, '');
      const next = hook(home, l.next ?? l.pre, args).stdout;
      assert.ok(l.denied(JSON.parse(next)), next);
    });

    it(`${l.agent}: detected without --agent, and fails open on garbage`, () => {
      const home = tempHome({ repeat: 2 });
      hook(home, l.prompt, []);
      hook(home, l.post, []);
      const second = hook(home, l.post, []);
      assert.ok(l.nudged(JSON.parse(second.stdout)), second.stdout);
      for (const garbage of ['{"hook_event_name":', '[1,2]', 'null', '']) {
        const r = hook(home, garbage, ['--agent', l.agent]);
        assert.deepEqual(r, { stdout: '', status: 0 });
      }
      assert.match(readFileSync(join(home, 'errors.log'), 'utf8'), /stdin is not JSON/);
    });
  }
});
