import type { ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { daemonFile, runningDaemon } from './daemon-file.ts';
import { heldByOther, portHolder } from './port-holder.ts';

// The daemon is started on demand: by the command hook, when it runs because the daemon did not (the
// installed command skips node while the daemon is up). At most one attempt every RETRY_MS, so a port
// taken by another program costs one spare process now and then, not one per tool call; a port another
// user's program holds is not tried at all. The hook waits until the daemon listens (or gives up), so
// that the events that follow, some of which only the daemon is asked about, find it up.

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

const WAIT_MS = 2000;

/**
 * Starts `stallguard serve --port <port>` in the background unless it runs or was tried just now; the
 * child, when one was started. Throws, after recording the attempt, when another user's program holds the port.
 */
export function ensureDaemon(home: string, port: number, cli: string): ChildProcess | undefined {
  if (runningDaemon(home)) return undefined;
  mkdirSync(home, { recursive: true, mode: 0o700 });
  if (!claimAttempt(home)) return undefined;
  const holder = portHolder(port);
  if (heldByOther(holder))
    throw new Error(
      `port ${port} on 127.0.0.1 is held by a program of another user (uid ${holder.uid}), so stallguard serve ` +
        'cannot start there; every call starts node. Pick a free port with: stallguard install --port N',
    );
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
  return child;
}

/** Resolves once the daemon started listens (its serve.pid is written), exits, or WAIT_MS have passed. */
export function listening(home: string, child: ChildProcess, waitMs = WAIT_MS): Promise<void> {
  return new Promise((done) => {
    const end = Date.now() + waitMs;
    const finish = () => {
      clearInterval(poll);
      child.off('exit', finish);
      done();
    };
    const poll = setInterval(() => {
      if (existsSync(daemonFile(home)) || Date.now() > end) finish();
    }, 10);
    child.once('exit', finish);
  });
}
