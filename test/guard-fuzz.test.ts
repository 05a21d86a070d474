import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { guardCall } from '../src/guard/guard.ts';
import { internalErrors } from './support/fuzz.ts';
import { claude, runCli, runHookAsync } from './support/hook-process.ts';

// Self-protection reads whatever an agent writes: commands made of random shell words (brackets, quotes,
// globs, substitutions, here-strings, PowerShell) must never make it throw, in process or in the real hook,
// which would fail open with an error line and leave the call unobserved.

const WORDS = [
  'rm',
  'cp',
  'mv',
  'ln',
  '-sf',
  'echo',
  'cat',
  'tee',
  'find',
  '.',
  '-name',
  '-exec',
  '{}',
  '\\;',
  '+',
  '-delete',
  'git',
  'restore',
  '--staged',
  'sed',
  '-i',
  'python3',
  '-c',
  'node',
  '-e',
  'bash',
  'sh',
  'eval',
  'xargs',
  'Remove-Item',
  'Set-Content',
  '$env:USERPROFILE\\.claude',
  'cd',
  '..',
  '.claude/settings.json',
  '~/.claude',
  '~/.stallguard',
  '.codex/config.toml',
  '*.json',
  '.clau*',
  '**',
  '?',
  '[',
  ']',
  '[]',
  '[!a]',
  '[[:alpha:]]',
  '[a-',
  '(',
  ')',
  '{',
  '}',
  '{a,b}',
  '{1..3}',
  '$(',
  '`',
  "'",
  '"',
  "$'\\x2e'",
  '<<<',
  '<<EOF',
  '\nEOF\n',
  '>',
  '>>',
  '&>',
  '2>&1',
  '|',
  '&&',
  '||',
  ';',
  '\n',
  '#',
  '$HOME',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, as an agent's command spells it
  '${X}',
  '$X',
  'X=.claude',
  'a = [] b(t[i:j])',
  't[i:j]',
  '\\',
  '%USERPROFILE%',
  'C:\\Users\\x',
  'disableAllHooks',
  'STALLGUARD_MODE',
];
const command = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(' ', '', '"', "'", '/')), { maxLength: 14 })
  .map((parts) => parts.map(([w, sep]) => w + sep).join(''));
const shellTool = fc.constantFrom('Bash', 'PowerShell', 'run_shell_command', 'Shell', 'exec_command');

const ctx = {
  cwd: '/home/dev/proj',
  home: '/home/dev',
  stallguardHome: '/home/dev/.stallguard',
  selfDir: '/opt/stallguard/dist',
  nodePath: '/usr/bin/node',
  realpath: (p: string) => p,
  readText: () => '{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"node hook.cjs # stallguard"}]}]}}',
};

describe('self-protection under random shell words', () => {
  it('never throws in process', () => {
    fc.assert(
      fc.property(shellTool, command, (tool, cmd) => {
        guardCall({ name: tool, input: { command: cmd } }, ctx);
        guardCall({ name: 'Edit', input: { file_path: cmd, old_string: cmd, new_string: cmd } }, ctx);
        guardCall(
          {
            name: 'apply_patch',
            input: { command: `*** Begin Patch\n*** Update File: ${cmd}\n@@\n-${cmd}\n+${cmd}\n*** End Patch` },
          },
          ctx,
        );
      }),
      { numRuns: 3000 },
    );
  });

  it('never logs an error in the real hook process', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-gfuzz-'));
    const env = { HOME: dir, STALLGUARD_HOME: join(dir, 'sg'), STALLGUARD_MODE: 'enforce' };
    const cmds = fc.sample(fc.tuple(shellTool, command), { numRuns: 60, seed: 14 });
    cmds.push(
      ['Bash', 'echo x > "a = [] b(t[i:j])"'],
      ['Bash', 'echo x > a[]b(t[i:j]'],
      ['PowerShell', "Set-Content -Path 'x[1]' -Value (Get-Date)"],
    );
    for (let i = 0; i < cmds.length; i += 2) {
      await Promise.all(
        cmds.slice(i, i + 2).map(async ([tool, cmd], k) => {
          const run = await runHookAsync(claude.pre(dir, tool, { command: cmd }, `f${i + k}`), env);
          assert.equal(run.status, 0);
        }),
      );
    }
    assert.deepEqual(internalErrors(env.STALLGUARD_HOME), []);
  });

  it('stallguard replay reads a session with such a command to the end', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-greplay-'));
    const trace = join(dir, 't.jsonl');
    const calls = ['echo x > "a = [] b(t[i:j])"', 'rm -f *[', 'cat "$(ls)"'].map((c, i) =>
      JSON.stringify({ i, tool: 'Bash', input: { command: c }, output: '', ok: true, batch: i, turn: 0 }),
    );
    writeFileSync(trace, [JSON.stringify({ meta: { id: 't', agent: 'claude-code' } }), ...calls].join('\n') + '\n');
    const r = runCli(['replay', trace, '--json'], { HOME: dir, STALLGUARD_HOME: join(dir, 'sg') }, dir);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /"summary":\{.*"calls":3/);
  });
});
