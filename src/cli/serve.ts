import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existsSync, mkdirSync } from 'node:fs';
import { stallguardHome } from '../config/load.ts';
import { logError } from '../hook/run-hook.ts';
import { type DaemonInfo, removeDaemonFile, runningDaemon, writeDaemonFile } from '../hook/daemon-file.ts';
import { heldByOther, portHolder } from '../hook/port-holder.ts';
import { defaultPort } from '../serve/address.ts';
import { createHookServer } from '../serve/server.ts';
import { OpenTurns } from '../serve/open-turns.ts';
import { parseOptions, parsePort } from './_args.ts';
import { UsageError } from './_errors.ts';

export const summary = "the hook as a local server, for Claude Code's http hooks and the hook commands' first stage";

const HOME_CHECK_MS = 30_000;

const HELP = `usage: stallguard serve [--port N] [--idle MINUTES]
       stallguard serve --stop

Runs the hook as a server on 127.0.0.1 (default port ${defaultPort()} for this user), for Claude Code's http
hooks and the bash first stage of the other agents' hook commands, which install registers by default;
the command hook stands in for it while it is down, and starts it. One per STALLGUARD_HOME: it writes
STALLGUARD_HOME/serve.pid while it listens, and exits after --idle minutes without a request (default 30)
once no Claude Code turn is open (up to 6 hours after a turn's last event), or when STALLGUARD_HOME is
removed. --stop ends the running one.`;

function idleMinutes(value: string | undefined): number {
  if (value === undefined) return 30;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0)
    throw new UsageError(`serve: --idle must be a number of minutes above 0 (got "${value}")`);
  return n;
}

function stop(home: string): number {
  const running = runningDaemon(home);
  if (!running) {
    console.log(`stallguard serve: none is running for ${home}`);
    return 0;
  }
  process.kill(running.pid, 'SIGTERM');
  console.log(`stallguard serve: stopped the server on port ${running.port} (pid ${running.pid})`);
  return 0;
}

/**
 * One daemon per STALLGUARD_HOME: a second start says where the
 * first one is, and succeeds when it is on the port asked for.
 */
function alreadyRunning(home: string, running: DaemonInfo, port: number): number {
  const where = `stallguard serve: already running for ${home} on port ${running.port} (pid ${running.pid})`;
  if (running.port === port) {
    console.log(`${where}; stop it with: stallguard serve --stop`);
    return 0;
  }
  console.error(`${where}, not ${port}; one serves each STALLGUARD_HOME: stop it first with stallguard serve --stop`);
  return 1;
}

export async function run(argv: string[]): Promise<number> {
  const { values } = parseOptions('serve', argv, {
    port: { type: 'string' },
    idle: { type: 'string' },
    stop: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const home = stallguardHome();
  if (values.stop) return stop(home);
  const port = values.port === undefined ? defaultPort() : parsePort('serve', values.port);
  const idleMs = idleMinutes(values.idle) * 60_000;
  const running = runningDaemon(home);
  if (running) return alreadyRunning(home, running, port);
  mkdirSync(home, { recursive: true, mode: 0o700 });

  let idle: NodeJS.Timeout | undefined;
  let gone: NodeJS.Timeout | undefined;
  const turns = new OpenTurns();
  const server = createHookServer({
    port,
    home,
    env: process.env,
    selfDir: dirname(fileURLToPath(import.meta.url)),
    onRequest: () => idle?.refresh(),
    turns,
    onHomeGone: () => shutdown(),
  });
  const shutdown = () => {
    clearTimeout(idle);
    clearInterval(gone);
    // stop accepting first: until the file is gone the command hooks
    // stand aside, so a call in between is missed, never counted twice
    server.close();
    server.closeAllConnections?.();
    removeDaemonFile(home);
  };
  const listening = await new Promise<NodeJS.ErrnoException | undefined>((done) => {
    server.once('error', (e) => done(e));
    server.listen(port, '127.0.0.1', () => done(undefined));
  });
  if (listening) {
    if (listening.code === 'EADDRINUSE') {
      // started twice at once: the other one won, which is what was wanted
      await new Promise((r) => setTimeout(r, 300));
      const other = runningDaemon(home);
      if (other) return alreadyRunning(home, other, port);
      const holder = portHolder(port);
      const by = heldByOther(holder) ? `a program of another user (uid ${holder.uid})` : 'another program';
      const message = `port ${port} on 127.0.0.1 is taken by ${by}; pick another with: stallguard install --port N`;
      logError(home, 'serve', new Error(message));
      throw new Error(message);
    }
    throw listening;
  }
  writeDaemonFile(home, { pid: process.pid, port });
  // the server keeps the process up, not the timer; idle, it stays while a Claude Code turn is open
  idle = setTimeout(() => (turns.any(Date.now()) ? idle?.refresh() : shutdown()), idleMs).unref();
  // a STALLGUARD_HOME removed (a reset, a test's scratch folder) takes its daemon with it
  gone = setInterval(() => existsSync(home) || shutdown(), HOME_CHECK_MS).unref();
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, shutdown);
  process.once('exit', () => removeDaemonFile(home));
  console.log(
    `stallguard serve: listening on http://127.0.0.1:${port}/stallguard/ (pid ${process.pid}) ` +
      `for ${home}; it exits after ${idleMs / 60_000} idle minutes, or on: stallguard serve --stop`,
  );
  await new Promise<void>((done) => server.once('close', () => done()));
  return 0;
}
