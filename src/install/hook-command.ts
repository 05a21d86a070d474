import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentName } from '../types.ts';

/** The bundled hook file beside the running CLI (dist/hook.cjs). */
export function hookPath(): string {
  return distFile('hook.cjs');
}

/** A file of the build beside the running CLI (dist/): the hook, or an in-process plugin. */
export function distFile(name: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), name);
}

function shellQuote(s: string): string {
  return /^[A-Za-z0-9_\/.:=@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** How an agent's hook reaches the daemon: Claude Code's http hook, or the command's bash first stage. */
export type DaemonWay = 'http' | 'first-stage';

export interface CommandOptions {
  /** The agent runs the command through `sh -c` (POSIX shell syntax may be used). */
  shell?: boolean;
  /** The daemon, `stallguard serve` on this port: node runs only when it is down, and starts it. */
  daemon?: { port: number; way: DaemonWay };
  /** The bash first stage (dist/hook-client.sh). */
  client?: string;
  platform?: NodeJS.Platform;
  /** Major version of the node that runs the hook. */
  nodeMajor?: number;
}

/** The first stage beside the hook (dist/hook-client.sh). */
export function clientPath(): string {
  return distFile('hook-client.sh');
}

/** The shell test that the daemon named in STALLGUARD_HOME/serve.pid is alive, with builtins only (read, kill). */
export function daemonAliveTest(): string {
  // the 2> comes first: a redirection that fails (no file yet) reports on the stderr in force at that point
  return `read p _ 2>/dev/null < "\${STALLGUARD_HOME:-$HOME/.stallguard}/serve.pid" && kill -0 "$p" 2>/dev/null`;
}

/**
 * The command an agent runs for every hook: the absolute node binary and the absolute bundle, never npx
 * (which costs about half a second per call).
 *
 * Through a POSIX shell, two more things: on Node 20, NODE_EXTRA_CA_CERTS in the agent's environment makes
 * every node start load the certificate file (+80 ms a call); the command clears it, as a shell assignment
 * (free, unlike an `env -u` process), and keeps its value in STALLGUARD_CA_CERTS for the one TLS connection
 * a hook may make (the optional LLM judge), which loads it then. It is written whatever the
 * installer's own environment holds, since the agent may be started from elsewhere (an IDE, a login shell).
 *
 * With the daemon, node runs only when it is not up. Beside Claude Code's http hook, the command only tests
 * with two shell builtins that the daemon is alive and leaves the call to the http hook. For the agents with
 * command hooks alone, which run them with bash -c, the shell sources the first stage (src/hook/client.sh),
 * which hands the payload to the daemon over its port with bash's own builtins, and stands aside before
 * reading it when there is no daemon to take it, or the shell is not bash, or the file is gone: node then
 * takes the call.
 */
export function hookCommand(
  agent: AgentName,
  node = process.execPath,
  hook = hookPath(),
  options: CommandOptions = {},
): string {
  const {
    shell = false,
    daemon,
    client = clientPath(),
    platform = process.platform,
    nodeMajor = Number(process.versions.node.split('.')[0]),
  } = options;
  const posixShell = shell && platform !== 'win32';
  // the optional LLM judge is the one TLS connection a hook makes: it gets the certificates back from here
  const clearCerts =
    posixShell && nodeMajor < 22 ? 'STALLGUARD_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS= ' : '';
  const run = `${clearCerts}${shellQuote(node)} ${shellQuote(hook)} --agent ${agent}`;
  if (daemon === undefined) return run;
  if (!posixShell) throw new Error('the daemon needs a POSIX shell to run the hook command');
  const quoted = shellQuote(client);
  const first = daemon.way === 'http' ? daemonAliveTest() : `[ -f ${quoted} ] && . ${quoted} ${agent} 2>/dev/null`;
  return `${first} || ${run} --serve-port ${daemon.port}`;
}

/**
 * The command of a shared install (--scope project), committed for the whole team: `stallguard` from each
 * teammate's PATH, never a path of this machine. A teammate without it must not be hindered: a missing
 * command exits 127, which Gemini CLI takes as a deny of every call, so the command first checks that
 * `stallguard` is there and otherwise steps aside (exit 0, nothing printed).
 */
export function sharedCommand(agent: AgentName, options: Pick<CommandOptions, 'shell' | 'platform'> = {}): string {
  const { shell = false, platform = process.platform } = options;
  if (platform === 'win32') return `stallguard hook --agent ${agent}`;
  // which node a teammate has is not known here: clear the variable as on Node 20, it costs nothing
  const clearCerts = shell ? 'STALLGUARD_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS= ' : '';
  return `command -v stallguard >/dev/null 2>&1 || exit 0; ${clearCerts}stallguard hook --agent ${agent}`;
}
