import { errorText } from '../core/errno.ts';
import { UsageError } from './_errors.ts';

// The `stallguard` command. Each command is loaded only when it runs, so `stallguard hook` does not pay
// for the installer or the readers.

declare const __VERSION__: string;

type Command = { run(argv: string[]): Promise<number> | number; summary: string };
const COMMANDS: Record<string, () => Promise<Command>> = {
  hook: () => import('./hook.ts'),
  install: () => import('./install.ts'),
  uninstall: () => import('./uninstall.ts'),
  replay: () => import('./replay.ts'),
  scan: () => import('./scan.ts'),
  report: () => import('./report.ts'),
  review: () => import('./review.ts'),
  tune: () => import('./tune.ts'),
  export: () => import('./export.ts'),
  status: () => import('./status.ts'),
  rules: () => import('./rules.ts'),
  watch: () => import('./watch.ts'),
  doctor: () => import('./doctor.ts'),
  serve: () => import('./serve.ts'),
};

const USAGE = `stallguard: catches coding agents stuck in a loop, through their hooks.

usage: stallguard <command> [options]

commands:
  install     register the hook with an agent (default: Claude Code, for you in this project)
  uninstall   remove exactly what install added
  scan        what stallguard would have done in your past agent sessions
  report      tables and a page of the stalls, what they cost, and what to tell the agent
  review      mark what stallguard flagged right or wrong, one key each
  tune        fit stallguard's settings to your verdicts: before and after on your history
  export      ship detections to OpenTelemetry (OTLP) or a Prometheus textfile
  replay      run the detector over recorded trajectories
  status      what stallguard holds and has done
  doctor      what is wrong with this setup, and how to fix it
  rules       a rule for CLAUDE.md / AGENTS.md that makes stalls rarer
  watch       run a headless agent; fail the run after a span with no output
  hook        the hook itself: one payload on stdin, the agent's response on stdout
  serve       the hook as a local server, for Claude Code http hooks (install --daemon)

environment: STALLGUARD_HOME (default ~/.stallguard), STALLGUARD_MODE (shadow | enforce | off)
Run "stallguard <command> --help" for a command's options.`;

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(USAGE);
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-v') {
    console.log(typeof __VERSION__ === 'string' ? __VERSION__ : 'dev');
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    console.error(`stallguard: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  try {
    const command = await load();
    return await command.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`stallguard ${e.message}`);
      return 2;
    }
    console.error(
      `stallguard ${name}: ${(e as NodeJS.ErrnoException).code === 'EPIPE' ? 'output closed' : errorText(e)}`,
    );
    return 1;
  }
}
