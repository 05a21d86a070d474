import { dirname } from 'node:path';
import { isatty } from 'node:tty';
import { fileURLToPath } from 'node:url';
import { stallguardHome } from '../config/load.ts';
import { AGENTS, logError, runHookAsync } from '../hook/run-hook.ts';
import { readStdin } from '../hook/stdin.ts';

export const summary = 'the hook itself';

const HELP = `usage: stallguard hook [--agent ${AGENTS.join('|')}] < payload.json

The hook an agent runs on each of its events: one hook payload (JSON) on stdin, the agent's response on
stdout (nothing when there is nothing to say). The agent is told apart by its payload when --agent is
absent. It always exits 0 and prints nothing but the response: whatever goes wrong (garbage on stdin,
unreadable state, a bug) lets the agent's call go on, with a line in STALLGUARD_HOME/errors.log.

\`stallguard install\` registers it; this command is what a shared install (--scope project) runs from PATH.`;

/** `stallguard hook`: the same as the bundled hook file, for agents configured through the CLI. */
export async function run(argv: string[]): Promise<number> {
  // a person at a terminal, not an agent: agents pipe the payload and never pass --help (isatty, not
  // process.stdin, which would load node's stream machinery on every call)
  if (argv.includes('--help') || argv.includes('-h') || isatty(0)) {
    (argv.includes('--help') || argv.includes('-h') ? console.log : console.error)(HELP);
    return 0;
  }
  let stdout = '';
  try {
    const stdin = await readStdin();
    stdout = (await runHookAsync({ stdin, argv, env: process.env, selfDir: dirname(fileURLToPath(import.meta.url)) }))
      .stdout;
  } catch (error) {
    logError(stallguardHome(), 'hook', error);
  }
  if (stdout) process.stdout.write(stdout + '\n');
  return 0;
}
