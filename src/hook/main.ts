import { join } from 'node:path';
import { stallguardHome } from '../config/load.ts';
import { ensureDaemon, listening } from './start-daemon.ts';
import { decidedPath, logError, runHookAsync } from './run-hook.ts';
import { readStdin, writeStdout } from './stdin.ts';

// The hook process: one payload on stdin, the agent's response on stdout. Bundled to dist/hook-main.cjs,
// which dist/hook.cjs (load.ts) runs with V8's code cache. Always exits 0: a hook that fails closed would
// break the agent's session.

/** How much of the hook's code this run ran (run-hook.ts's decidedPath): a heavier run's code cache is preferred. */
export let weight = 0;

/** `--serve-port N`: installed with the daemon, this command runs only when the daemon did not, and starts it. */
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
    const out = await runHookAsync({ stdin, argv, env: process.env, selfDir: __dirname });
    stdout = out.stdout;
    weight = decidedPath;
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
    const home = stallguardHome();
    const child =
      port !== undefined && process.env.STALLGUARD_MODE?.trim() !== 'off'
        ? ensureDaemon(home, port, join(__dirname, 'cli.js'))
        : undefined;
    if (child) await listening(home, child);
  } catch (error) {
    logError(stallguardHome(), 'serve', error);
  }
  // at once: all that is left is work V8 scheduled for itself (a garbage collection, say), of no use to a
  // process that ends, and the 'exit' handlers (the code cache's) run as they would
  process.exit(0);
}

void main();
