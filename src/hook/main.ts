import { readFileSync } from 'node:fs';
import { runHook } from './run-hook.ts';

// Entry of dist/hook.cjs, the file the installed hook command runs: `node <abs>/dist/hook.cjs`.
// Always exits 0: a hook that fails closed would break the agent's session.

function main(): void {
  let stdout = '';
  try {
    const stdin = process.stdin.isTTY ? '' : readFileSync(0, 'utf8');
    stdout = runHook({ stdin, argv: process.argv.slice(2), env: process.env, selfDir: __dirname }).stdout;
  } catch {
    stdout = '';
  }
  if (stdout) process.stdout.write(stdout + '\n');
  process.exitCode = 0;
}

main();
