import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/load.ts';
import { readTrajectory, sniffFormat } from '../readers/read-file.ts';
import { replayItems } from '../replay/replay.ts';
import { parse } from './_args.ts';
import { explainProblems } from './_config.ts';

export const summary = 'what stallguard would have done in past sessions';

const HELP = `usage: stallguard scan [PATH...] [--json]

Reads past agent sessions (default: Claude Code's history in ~/.claude/projects and CLAUDE_CONFIG_DIR) and
reports per session what stallguard would have done. With no history on this machine it replays a bundled
example session, so you can see the product at work.`;

/** Where agents keep their history on this machine. */
export function defaultHistoryDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const home = env.HOME || homedir();
  const dirs = [join(home, '.claude', 'projects'), join(home, '.config', 'claude', 'projects')];
  for (const d of (env.CLAUDE_CONFIG_DIR ?? '').split(/[,:]/).filter(Boolean)) dirs.push(join(d, 'projects'));
  return [...new Set(dirs.map((d) => resolve(d)))].filter((d) => existsSync(d));
}

function* jsonlFiles(path: string, depth = 0): Generator<string> {
  let st;
  try {
    st = statSync(path);
  } catch {
    return;
  }
  if (st.isFile()) {
    if (/\.jsonl?$/.test(path)) yield path;
    return;
  }
  if (!st.isDirectory() || depth > 8) return;
  for (const name of readdirSync(path).sort()) yield* jsonlFiles(join(path, name), depth + 1);
}

export function examplesDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', 'examples');
}

export function run(argv: string[]): number {
  const { values, positionals } = parse('scan', argv, { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  let roots = positionals.length > 0 ? positionals : defaultHistoryDirs();
  let demo = false;
  if (positionals.length === 0 && roots.length === 0) {
    roots = [examplesDir()];
    demo = true;
    if (!values.json) console.log('No agent history found on this machine (~/.claude/projects). Here is stallguard on a bundled example session:\n');
  }
  const loaded = loadConfig({ cwd: process.cwd() });
  explainProblems(loaded.problems);
  let sessions = 0;
  let withStalls = 0;
  for (const root of roots) {
    if (!existsSync(root)) {
      console.error(`stallguard scan: ${root}: no such file or folder`);
      continue;
    }
    for (const file of jsonlFiles(root)) {
      const format = sniffFormat(file);
      if (!format) continue;
      const { items, stats } = readTrajectory(file, format);
      const { interventions, summary } = replayItems(items, loaded.config);
      sessions++;
      if (interventions.length > 0) withStalls++;
      if (values.json) {
        console.log(
          JSON.stringify({
            session: basename(file).replace(/\.jsonl?$/, ''),
            agent: format === 'trace' ? 'trace' : 'claude',
            file,
            calls: summary.calls,
            stalls: interventions.map((i) => ({ step: i.step, action: i.action, signals: i.signals })),
            skippedLines: stats.skipped,
          }),
        );
      } else if (interventions.length > 0 || demo) {
        console.log(`${file}\n  ${summary.calls} calls, ${interventions.length} interventions`);
        for (const i of interventions) console.log(`  step ${String(i.step).padEnd(4)} ${i.action.padEnd(6)} ${i.message}`);
      }
    }
  }
  if (!values.json) console.log(`\n${sessions} sessions scanned, ${withStalls} with stalls.`);
  return 0;
}
