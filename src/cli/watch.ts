import { formatDuration, parseDuration } from '../watch/duration.ts';
import { exitCode, watch } from '../watch/watch.ts';
import { parse } from './_args.ts';
import { UsageError } from './_errors.ts';

export const summary = 'run a headless agent; fail the run after a span with no output';

/** The exit code of a run ended for silence: the one timeout(1) uses. */
export const SILENT_EXIT = 124;

const HELP = `usage: stallguard watch [--silence 10m] -- <agent command> [args...]

Runs the agent command, passing its output and exit code through. If it prints nothing (stdout or stderr)
for the --silence span (default 10m; e.g. 90s, 1h, 500ms), it ends the agent and everything it started,
says so, and exits ${SILENT_EXIT}: an agent hung without calling a tool is a stall no hook sees.`;

const NO_COMMAND =
  'watch: give the agent command after --, e.g. stallguard watch --silence 10m -- claude -p "fix the tests"';

export async function run(argv: string[]): Promise<number> {
  const split = argv.indexOf('--');
  if (split === -1 && !argv.includes('--help') && !argv.includes('-h')) throw new UsageError(NO_COMMAND);
  const { values, positionals } = parse('watch', split === -1 ? argv : argv.slice(0, split), {
    silence: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const command = argv.slice(split + 1);
  if (command.length === 0 || positionals.length > 0) throw new UsageError(NO_COMMAND);
  const silenceMs = values.silence === undefined ? 600_000 : parseDuration(values.silence);
  if (silenceMs === undefined)
    throw new UsageError(`watch: --silence must be a duration such as 10m, 90s, 1h or 500ms (got "${values.silence}")`);

  const result = await watch({ command: command[0]!, args: command.slice(1), silenceMs });
  const code = exitCode(result, SILENT_EXIT);
  if (result.kind === 'silent') {
    process.stderr.write(
      `\nstallguard watch: no output from "${command.join(' ')}" for ${formatDuration(result.silentMs)}; ` +
        `ended it and everything it started (exit ${code}). It was stalled where no hook sees it.\n`,
    );
  } else if (result.kind === 'failed') {
    process.stderr.write(
      'stallguard watch: cannot run ' +
        `"${command[0]}": ${result.error.code === 'ENOENT' ? 'command not found' : result.error.message}\n`,
    );
  }
  return code;
}
