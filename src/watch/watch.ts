import { spawn } from 'node:child_process';
import { constants } from 'node:os';

// The stall no hook sees: an agent that hangs without calling a tool (a model stream that never ends, a
// shell waiting on input, a deadlocked MCP server) fires no hook at all. watch runs a headless agent and
// ends it after a span with no output, so a CI run fails loudly instead of burning its whole time limit.

export interface WatchOptions {
  command: string;
  args: string[];
  silenceMs: number;
  /** Time between SIGTERM and SIGKILL when the agent has to be ended. */
  graceMs?: number;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export type WatchResult =
  /** The agent ended on its own: its exit code, or the signal that ended it. */
  | { kind: 'exited'; code: number | null; signal: NodeJS.Signals | null }
  /** Nothing on stdout or stderr for silenceMs: the agent's process group was ended. */
  | { kind: 'silent'; silentMs: number }
  /** The command could not be started. */
  | { kind: 'failed'; error: NodeJS.ErrnoException };

/** The exit code a shell would report for a result: the agent's own, 128+signal, or 127 when not found. */
export function exitCode(r: WatchResult, silentExit: number): number {
  if (r.kind === 'silent') return silentExit;
  if (r.kind === 'failed') return r.error.code === 'ENOENT' ? 127 : 126;
  if (r.code !== null) return r.code;
  return 128 + (r.signal ? (constants.signals[r.signal] ?? 0) : 0);
}

export function watch(opts: WatchOptions): Promise<WatchResult> {
  const out = opts.stdout ?? process.stdout;
  const err = opts.stderr ?? process.stderr;
  const grace = opts.graceMs ?? 5000;
  return new Promise((resolve) => {
    // its own process group, so that the agent's children (shells, servers, subagents) end with it
    const child = spawn(opts.command, opts.args, { stdio: ['inherit', 'pipe', 'pipe'], detached: true });
    let last = Date.now();
    let silent: number | undefined;
    let timer: NodeJS.Timeout | undefined;
    let killer: NodeJS.Timeout | undefined;

    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        // the group is gone already
      }
    };
    const forward = (signal: NodeJS.Signals) => () => signalGroup(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    const onHup = forward('SIGHUP');
    process.on('SIGINT', onInt).on('SIGTERM', onTerm).on('SIGHUP', onHup);

    const arm = (): void => {
      timer = setTimeout(
        () => {
          const quiet = Date.now() - last;
          if (quiet < opts.silenceMs) return arm();
          silent = quiet;
          signalGroup('SIGTERM');
          killer = setTimeout(() => signalGroup('SIGKILL'), grace);
          killer.unref();
        },
        Math.max(1, last + opts.silenceMs - Date.now()),
      );
    };
    arm();

    const pass = (to: NodeJS.WritableStream) => (chunk: Buffer) => {
      last = Date.now();
      to.write(chunk);
    };
    child.stdout!.on('data', pass(out));
    child.stderr!.on('data', pass(err));

    const finish = (r: WatchResult) => {
      clearTimeout(timer);
      process.off('SIGINT', onInt).off('SIGTERM', onTerm).off('SIGHUP', onHup);
      resolve(r);
    };
    child.on('error', (error) => finish({ kind: 'failed', error }));
    child.on('close', (code, signal) => {
      clearTimeout(killer);
      // whatever the agent left running in its group goes with it
      signalGroup('SIGKILL');
      finish(silent !== undefined ? { kind: 'silent', silentMs: silent } : { kind: 'exited', code, signal });
    });
  });
}
