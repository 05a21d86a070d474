import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

// Runs the real bundled hook as the agent would: a fresh node process, the payload on stdin.

export const HOOK = resolve('dist/hook.cjs');
export const CLI = resolve('dist/cli.js');

export interface HookRun {
  stdout: string;
  stderr: string;
  status: number | null;
}

export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, LANG: 'C.UTF-8', ...extra };
  return env;
}

export function runHookProcess(payload: unknown, env: Record<string, string>, args: string[] = []): HookRun {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const r = spawnSync(process.execPath, [HOOK, ...args], { input, env: cleanEnv(env), encoding: 'utf8' });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** Starts the hook without waiting for it: the child (to kill it half-way) and its result. */
export function startHook(
  payload: unknown,
  env: Record<string, string>,
): { child: ChildProcess; done: Promise<HookRun> } {
  const child = spawn(process.execPath, [HOOK], { env: cleanEnv(env) });
  const done = new Promise<HookRun>((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (b) => (stdout += b));
    child.stderr!.on('data', (b) => (stderr += b));
    child.on('close', (status) => resolve({ stdout, stderr, status }));
  });
  // a child killed before it reads its stdin makes the write fail with EPIPE; that is the point of killing it
  child.stdin!.on('error', () => {});
  child.stdin!.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
  return { child, done };
}

export function runHookAsync(payload: unknown, env: Record<string, string>): Promise<HookRun> {
  return startHook(payload, env).done;
}

export function runCli(args: string[], env: Record<string, string>, cwd?: string): HookRun {
  const r = spawnSync(process.execPath, [CLI, ...args], { env: cleanEnv(env), encoding: 'utf8', cwd });
  return { stdout: r.stdout, stderr: r.stderr, status: r.status };
}

/** A scratch folder with a project inside, and STALLGUARD_HOME beside it. */
export function scratch(
  mode?: 'shadow' | 'enforce' | 'off',
  config: Record<string, unknown> = {},
): { dir: string; project: string; home: string; env: Record<string, string> } {
  const dir = mkdtempSync(join(tmpdir(), 'sg-test-'));
  const project = join(dir, 'proj');
  const home = join(dir, 'sg-home');
  spawnSync('mkdir', ['-p', project, join(dir, 'home')]);
  if (mode) writeFileSync(join(project, '.stallguard.json'), JSON.stringify({ mode, ...config }));
  return { dir, project, home, env: { STALLGUARD_HOME: home, HOME: join(dir, 'home') } };
}

/** Claude Code payloads, in the shapes captured from 2.1.197 (test/fixtures/payloads). */
export const claude = {
  base(project: string, session = 'sess-1', agent?: { id: string; type: string }) {
    return {
      session_id: session,
      transcript_path: `/home/dev/.claude/projects/-proj/${session}.jsonl`,
      cwd: project,
      prompt_id: 'prompt-1',
      permission_mode: 'default',
      ...(agent ? { agent_id: agent.id, agent_type: agent.type } : {}),
    };
  },
  prompt(project: string, text = 'fix the tests', session?: string, promptId = 'prompt-1') {
    return { ...claude.base(project, session), prompt_id: promptId, hook_event_name: 'UserPromptSubmit', prompt: text };
  },
  pre(project: string, tool: string, input: unknown, session?: string, agent?: { id: string; type: string }) {
    return {
      ...claude.base(project, session, agent),
      effort: { level: 'high' },
      hook_event_name: 'PreToolUse',
      tool_name: tool,
      tool_input: input,
      tool_use_id: 'toolu_x',
    };
  },
  failure(project: string, command: string, error: string, session?: string, agent?: { id: string; type: string }) {
    return {
      ...claude.base(project, session, agent),
      hook_event_name: 'PostToolUseFailure',
      tool_name: 'Bash',
      tool_input: { command, description: 'Run tests' },
      tool_use_id: 'toolu_y',
      error: `Exit code 1\n\n${error}`,
      is_interrupt: false,
      duration_ms: 884,
    };
  },
  post(
    project: string,
    tool: string,
    input: unknown,
    response: unknown,
    session?: string,
    agent?: { id: string; type: string },
  ) {
    return {
      ...claude.base(project, session, agent),
      hook_event_name: 'PostToolUse',
      tool_name: tool,
      tool_input: input,
      tool_response: response,
      tool_use_id: 'toolu_z',
      duration_ms: 12,
    };
  },
  /** A batch's end, listing its calls as Claude Code does: `{tool_name, tool_input, tool_use_id, tool_response}`. */
  batch(project: string, session?: string, agent?: { id: string; type: string }, calls: unknown[] = []) {
    return { ...claude.base(project, session, agent), hook_event_name: 'PostToolBatch', tool_calls: calls };
  },
};
