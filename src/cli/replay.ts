import { loadConfig } from '../config/load.ts';
import { FORMATS, readTrajectory, sniffFormat } from '../readers/read-file.ts';
import { replayItems } from '../replay/replay.ts';
import type { TraceFormat } from '../readers/types.ts';
import { oneOf, parse } from './_args.ts';
import { UsageError } from './_errors.ts';
import { explainProblems } from './_config.ts';
import { errnoText } from '../core/errno.ts';
import { plural } from '../report/format.ts';

export const summary = 'run the detector over recorded trajectories';

const HELP = `usage: stallguard replay FILE... [--format auto|${FORMATS.join('|')}] [--json]

Runs the full detector over recorded trajectories as if live, with enforce semantics and the hook's own
code path (after a stop, the rest of that task is refused, and the person's next prompt starts a new one).
With --json: one line per intervention {file, step (the tool call's index, from 0), action, signals,
message}, then one {summary} line per file.`;

export function run(argv: string[]): number {
  const { values, positionals } = parse('replay', argv, {
    format: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length === 0) throw new UsageError(`replay: name at least one file\n${HELP}`);
  const forced = oneOf<TraceFormat | 'auto'>('replay', 'format', values.format, ['auto', ...FORMATS], 'auto');
  const loaded = loadConfig({ cwd: process.cwd() });
  explainProblems(loaded.problems);
  let failed = 0;
  for (const file of positionals) {
    let format: TraceFormat | undefined;
    try {
      format = forced === 'auto' ? sniffFormat(file) : forced;
    } catch (e) {
      console.error(`stallguard replay: cannot read ${file}: ${errnoText(e)}`);
      failed++;
      continue;
    }
    if (!format) {
      console.error(`stallguard replay: ${file}: not a format stallguard reads (use --format ${FORMATS.join('|')})`);
      failed++;
      continue;
    }
    const { items, stats } = readTrajectory(file, format);
    const { interventions, summary } = replayItems(items, loaded.config);
    if (values.json) {
      for (const i of interventions)
        console.log(
          JSON.stringify({
            file,
            step: i.step,
            action: i.action,
            signals: i.signals,
            message: i.message,
            agent: i.agent,
          }),
        );
      console.log(
        JSON.stringify({ summary: { file, format, ...summary, lines: stats.lines, skippedLines: stats.skipped } }),
      );
    } else {
      const stopped = summary.stoppedAt === undefined ? '' : `, stopped at call ${summary.stoppedAt + 1}`;
      console.log(
        `${file} (${format}, ${plural(summary.calls, 'call')}${stopped}` +
          `${stats.skipped ? `, ${plural(stats.skipped, 'unreadable line')} skipped` : ''})`,
      );
      if (interventions.length === 0) console.log('  no stalls');
      // `step` counts from 0 (as in --json and scan --json); a person counts calls from 1
      for (const i of interventions)
        console.log(
          `  call ${String(i.step + 1).padEnd(4)} ${i.action.padEnd(6)} ` +
            `${i.agent === 'main' ? '' : `[${i.agent}] `}${i.message}`,
        );
    }
  }
  return failed > 0 ? 1 : 0;
}
