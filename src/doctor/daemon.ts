import { existsSync } from 'node:fs';
import { runningDaemon } from '../hook/daemon-file.ts';
import { heldByOther, type PortHolder, portHolder } from '../hook/port-holder.ts';
import { onPath } from '../install/which.ts';
import { type Check, fail, ok, warn } from './check.ts';

// The daemon the installed hooks reach, where they do: whether it runs on the port they name, and if not,
// whether it can (a port another program holds keeps it from starting; held by another user's program,
// it also receives what Claude Code's http hook sends); and the bash first stage of the command hooks.

export interface DaemonUse {
  /** Who is installed this way, for the message: `Claude Code (local, .claude/settings.local.json)`. */
  where: string;
  port: number;
  /** Claude Code's http hook sends the payload whoever listens there. */
  http: boolean;
  /** The first stage the command runs before node (for the agents with command hooks alone). */
  client?: string;
}

export function checkDaemon(
  uses: DaemonUse[],
  home: string,
  env: NodeJS.ProcessEnv,
  holderOf: (port: number) => PortHolder = portHolder,
): Check[] {
  const checks: Check[] = [];
  const running = runningDaemon(home);
  const reinstall = 'pick a free port: stallguard install --port N (with --agent for the other agents)';
  for (const port of [...new Set(uses.map((u) => u.port))]) {
    const on = uses.filter((u) => u.port === port);
    const who = on.map((u) => u.where).join(', ');
    if (running?.port === port) {
      checks.push(ok('daemon', `stallguard serve runs on port ${port} (pid ${running.pid}), for ${who}`));
      continue;
    }
    if (running) {
      checks.push(
        warn(
          'daemon',
          `stallguard serve of ${home} runs on port ${running.port}, but ${who} ` +
            `${on.length > 1 ? 'name' : 'names'} port ${port}: those calls start node`,
          'stop it (stallguard serve --stop): the next tool call starts it on the port the hooks name',
        ),
      );
      continue;
    }
    const holder = holderOf(port);
    if (heldByOther(holder)) {
      const sent = on.some((u) => u.http) ? ', and Claude Code sends that program every hook payload' : '';
      checks.push(
        fail(
          'daemon',
          `port ${port} on 127.0.0.1 is held by a program of another user (uid ${holder.uid}): ` +
            `the daemon cannot start there${sent || ', so every call starts node'} (${who})`,
          reinstall,
        ),
      );
    } else if (typeof holder === 'object')
      checks.push(
        warn(
          'daemon',
          `port ${port} on 127.0.0.1 is taken by another program of yours (the daemon of another STALLGUARD_HOME?): ` +
            `the daemon of ${home} cannot start there, so every call starts node (${who})`,
          reinstall,
        ),
      );
    else
      checks.push(
        ok('daemon', `stallguard serve is not running now; the next tool call starts it on port ${port} (${who})`),
      );
  }
  const clients = uses.filter((u) => u.client);
  for (const client of [...new Set(clients.map((u) => u.client!))])
    if (!existsSync(client))
      checks.push(
        warn(
          'daemon',
          `the first stage ${client} is missing: every call starts node (${clients
            .filter((u) => u.client === client)
            .map((u) => u.where)
            .join(', ')})`,
          'run stallguard install again (with --agent for each agent)',
        ),
      );
  if (clients.length > 0 && !onPath('bash', env))
    checks.push(
      warn(
        'daemon',
        'bash is not on PATH: the first stage of the hook commands cannot run, so every call starts node',
        'install bash, or register the command hook alone: stallguard install --agent <agent> --no-daemon',
      ),
    );
  return checks;
}
