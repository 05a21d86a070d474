import { stallguardHome } from '../config/load.ts';
import { logError, runHook } from './run-hook.ts';
import { readStdin, writeStdout } from './stdin.ts';

// Entry of dist/hook.cjs, the file the installed hook command runs: `node <abs>/dist/hook.cjs`.
// Always exits 0: a hook that fails closed would break the agent's session.

async function main(): Promise<void> {
  let stdout = '';
  try {
    const stdin = await readStdin();
    stdout = runHook({ stdin, argv: process.argv.slice(2), env: process.env, selfDir: __dirname }).stdout;
  } catch (error) {
    logError(stallguardHome(), 'hook', error);
    stdout = '';
  }
  try {
    if (stdout) writeStdout(stdout + '\n');
  } catch (error) {
    logError(stallguardHome(), 'hook', error); // the agent closed the pipe: nothing more to do
  }
  process.exitCode = 0;
}

void main();
