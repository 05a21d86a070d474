import { join } from 'node:path';
import { stallguardHome } from '../config/load.ts';
import { ensureDaemon } from '../serve/start.ts';
import { logError, runHook } from './run-hook.ts';
import { readStdin, writeStdout } from './stdin.ts';

// Entry of dist/hook.cjs, the file the installed hook command runs: `node <abs>/dist/hook.cjs`.
// Always exits 0: a hook that fails closed would break the agent's session.

/** `--serve-port N`: installed with --daemon, this command runs only when the daemon did not, and starts it. */
function servePort(argv: string[]): number | undefined {
  const i = argv.indexOf('--serve-port');
  const port = i === -1 ? NaN : Number(argv[i + 1]);
  return Number.isInteger(port) ? port : undefined;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  let stdout = '';
  try {
    const stdin = await readStdin();
    stdout = runHook({ stdin, argv, env: process.env, selfDir: __dirname }).stdout;
  } catch (error) {
    logError(stallguardHome(), 'hook', error);
    stdout = '';
  }
  try {
    if (stdout) writeStdout(stdout + '\n');
  } catch (error) {
    logError(stallguardHome(), 'hook', error); // the agent closed the pipe: nothing more to do
  }
  const port = servePort(argv);
  try {
    if (port !== undefined && process.env.STALLGUARD_MODE?.trim() !== 'off') ensureDaemon(stallguardHome(), port, join(__dirname, 'cli.js'));
  } catch (error) {
    logError(stallguardHome(), 'serve', error);
  }
  process.exitCode = 0;
}

void main();
