import { UsageError } from './_errors.ts';
import type { DaemonWay } from '../install/hook-command.ts';
import { isShared, type Where } from '../install/place.ts';
import type { InstallTarget } from '../install/target.ts';

// Whether an install reaches the hook through the daemon: by default wherever it can (a personal install,
// on a POSIX system, of an agent with a way to the daemon), unless --no-daemon. A shared install names no
// port of anyone's: its command runs `stallguard` from each teammate's PATH.

export interface DaemonFlags {
  daemon?: boolean;
  'no-daemon'?: boolean;
  port?: string;
}

/**
 * The way to the daemon this install takes, or undefined for the command hook alone; asking for what cannot
 * be is a usage error.
 */
export function daemonWay(
  flags: DaemonFlags,
  target: InstallTarget,
  where: Where,
  platform: NodeJS.Platform = process.platform,
): DaemonWay | undefined {
  if (flags.daemon && flags['no-daemon'])
    throw new UsageError('install: --daemon and --no-daemon go one without the other');
  const why = !target.daemon
    ? `${target.label} has no way to the daemon (${
        target.plugin ? 'it loads stallguard in-process' : 'its hook commands are run by no shell stallguard knows'
      })`
    : platform === 'win32'
      ? 'the daemon needs a POSIX shell for the command that stands in for it; Windows keeps the command hook'
      : isShared(where)
        ? "the daemon's port is this user's, not the team's: it goes with --scope local or --scope user"
        : undefined;
  if (flags['no-daemon'] || (why && !flags.daemon)) {
    if (flags.port !== undefined)
      throw new UsageError(`install: --port is the daemon's, and this install has none${why ? ` (${why})` : ''}`);
    return undefined;
  }
  if (why) throw new UsageError(`install: --daemon: ${why}`);
  return target.daemon;
}
