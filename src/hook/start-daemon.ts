import { closeSync, mkdirSync, openSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { runningDaemon } from './daemon-file.ts';

// The daemon is started on demand: by the command hook, when it runs because the daemon did not (the
// installed command skips node while the daemon is up). At most one attempt every RETRY_MS, so a port
// taken by another program costs one spare process now and then, not one per tool call.

const RETRY_MS = 10_000;
const ATTEMPT_FILE = 'serve.start';

/** Records an attempt; false when another one was made less than RETRY_MS ago. */
function claimAttempt(home: string): boolean {
  const file = join(home, ATTEMPT_FILE);
  const now = Date.now();
  try {
    if (now - statSync(file).mtimeMs < RETRY_MS) return false;
    utimesSync(file, now / 1000, now / 1000);
  } catch {
    try {
      closeSync(openSync(file, 'wx', 0o600));
    } catch {
      return false; // another hook process made it just now
    }
  }
  return true;
}

/** Starts `stallguard serve --port <port>` in the background unless it runs or was tried just now. */
export function ensureDaemon(home: string, port: number, cli: string): boolean {
  if (runningDaemon(home)) return false;
  mkdirSync(home, { recursive: true, mode: 0o700 });
  if (!claimAttempt(home)) return false;
  // loaded only here: the hook's usual path never pays for it
  const { spawn } =
    process.getBuiltinModule?.('node:child_process') ??
    (require('node:child_process') as typeof import('node:child_process'));
  // in STALLGUARD_HOME, so that it holds no project folder open
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(port)], {
    cwd: home,
    detached: true,
    stdio: 'ignore',
    env: process.env,
  });
  child.on('error', () => undefined);
  child.unref();
  return true;
}
