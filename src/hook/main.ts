import { stallguardHome } from '../config/load.ts';
import { logError, runHookAsync } from './run-hook.ts';
import { readStdin } from './stdin.ts';

// Entry of dist/hook.cjs, the file the installed hook command runs: `node <abs>/dist/hook.cjs`.
// Always exits 0: a hook that fails closed would break the agent's session.

async function main(): Promise<void> {
  let stdout = '';
  try {
    const stdin = await readStdin();
    stdout = (await runHookAsync({ stdin, argv: process.argv.slice(2), env: process.env, selfDir: __dirname })).stdout;
  } catch (error) {
    logError(stallguardHome(), 'hook', error);
    stdout = '';
  }
  if (stdout) process.stdout.write(stdout + '\n');
  process.exitCode = 0;
}

void main();
