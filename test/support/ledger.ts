import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runHook } from '../../src/hook/run-hook.ts';
import { SEED_RULE } from './config.ts';

// A ledger written by the hook's own code path (runHook, in process): Claude Code's payloads for a
// prompt and each call, the way Claude Code sends them.

export interface Call {
  tool: string;
  input: Record<string, unknown>;
  output: string;
  ok: boolean;
}

/** `config`: the user config the hook runs with (default: the seed rule alone; null: none, the shipped settings). */
export function hookSession(
  home: string,
  session: string,
  calls: Call[],
  opts: { cwd?: string; mode?: 'shadow' | 'enforce'; prompt?: string; config?: object | null } = {},
): void {
  const env = { HOME: home, STALLGUARD_HOME: home, STALLGUARD_MODE: opts.mode ?? 'shadow' };
  mkdirSync(home, { recursive: true });
  if (opts.config !== null) writeFileSync(join(home, 'config.json'), JSON.stringify(opts.config ?? SEED_RULE));
  const base = {
    session_id: session,
    transcript_path: `${home}/.claude/projects/p/${session}.jsonl`,
    cwd: opts.cwd ?? '/home/dev/proj',
    prompt_id: `${session}-${(opts.prompt ?? 'fix the tests').replace(/\W+/g, '-')}`,
    permission_mode: 'default',
  };
  const send = (payload: object) => runHook({ stdin: JSON.stringify({ ...base, ...payload }), argv: ['hook'], env });
  send({ hook_event_name: 'UserPromptSubmit', prompt: opts.prompt ?? 'fix the tests' });
  calls.forEach((c, i) => {
    const id = `toolu_${session}_${i}`;
    send({ hook_event_name: 'PreToolUse', tool_name: c.tool, tool_input: c.input, tool_use_id: id });
    if (c.ok)
      send({
        hook_event_name: 'PostToolUse',
        tool_name: c.tool,
        tool_input: c.input,
        tool_use_id: id,
        tool_response: { stdout: c.output, stderr: '', interrupted: false },
      });
    else
      send({
        hook_event_name: 'PostToolUseFailure',
        tool_name: c.tool,
        tool_input: c.input,
        tool_use_id: id,
        error: c.output,
        is_interrupt: false,
      });
  });
}

export const npmTest = (): Call => ({
  tool: 'Bash',
  input: { command: 'npm test', description: 'Run tests' },
  output: 'Exit code 1\n> proj@1.0.0 test\n> node test.js\n\nrunning tests\n1 passed, 1 failed',
  ok: false,
});
export const grep = (pattern: string): Call => ({
  tool: 'Grep',
  input: { pattern, path: '/home/dev/web/src' },
  output: 'No matches found',
  ok: true,
});
export const read = (path: string): Call => ({
  tool: 'Read',
  input: { file_path: path },
  output: 'const a = 1;',
  ok: true,
});
