import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

// How the daemon is found: STALLGUARD_HOME/serve.pid holds "<pid> <port>" while `stallguard serve` listens.
// The installed command hook reads it with the shell's own builtins (read, kill -0) to tell whether the
// daemon is up, so it stays one line of plain text.

export const DAEMON_FILE = 'serve.pid';

export interface DaemonInfo {
  pid: number;
  port: number;
}

export function daemonFile(home: string): string {
  return join(home, DAEMON_FILE);
}

export function readDaemonFile(home: string): DaemonInfo | undefined {
  let text: string;
  try {
    text = readFileSync(daemonFile(home), 'utf8');
  } catch {
    return undefined;
  }
  const m = /^(\d+) (\d+)\s*$/.exec(text);
  return m ? { pid: Number(m[1]), port: Number(m[2]) } : undefined;
}

/** Whether a process with this pid exists (kill -0, as the installed shell command asks). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The daemon that serves this STALLGUARD_HOME, if one is running. */
export function runningDaemon(home: string): DaemonInfo | undefined {
  const info = readDaemonFile(home);
  return info && processAlive(info.pid) ? info : undefined;
}

/** Written only once the server listens, in one rename, so a reader never sees half a line. */
export function writeDaemonFile(home: string, info: DaemonInfo): void {
  const file = daemonFile(home);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${info.pid} ${info.port}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

/** Removes the file if it still names this process (a newer daemon may have replaced it). */
export function removeDaemonFile(home: string, pid = process.pid): void {
  if (readDaemonFile(home)?.pid !== pid) return;
  try {
    unlinkSync(daemonFile(home));
  } catch {
    /* already gone */
  }
}
