// Detection quality, printed by `npm run bench`: on both hand-labeled dev sets of ../shared/corpus (real
// users' sessions, users/labels-dev.jsonl, and SWE-bench-style runs, labels-dev.jsonl), the segments caught,
// the healthy runs alarmed and stopped, and the delay, for the shipped build (in-sample: it was fitted on
// these files), cross-validated (each fold scored by a judge fitted without it, folds grouped by person and
// by repository) and with the deterministic floors alone, next to the published rule sets as
// ../shared/tools/score_real.py re-implements them; then the synthetic suite of labeled Claude Code sessions.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { CASES } from '../test/synthetic/cases.ts';
import { runCase } from '../test/synthetic/run.ts';

const CORPUS = '../shared/corpus';
const SETS = [
  { source: 'users', title: "real users' sessions (users/labels-dev.jsonl)", dir: `${CORPUS}/users` },
  { source: 'swe', title: 'SWE-bench-style runs (labels-dev.jsonl)', dir: CORPUS },
];
const row = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
const WIDTHS = [46, 12, 14, 16, 16, 8];

/** One row per source from a section of fit-judge's report ("  users: high 12/16, all 16/37, ..."). */
function fitRows(report: string, heading: RegExp): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const at = report.search(heading);
  if (at === -1) return out;
  for (const line of report.slice(at).split('\n').slice(1)) {
    const m =
      /^ {2}(\w+): high (\S+), all (\S+), healthy alarmed (\S+), stops on healthy (\S+), stops on resolved healthy \S+, median delay (\S+)$/.exec(
        line,
      );
    if (!m) {
      if (!line.startsWith('    ')) break;
      continue;
    }
    out.set(m[1]!, [m[2]!, m[3]!, m[4]!, m[5]!, m[6]!]);
  }
  return out;
}

function corpus(): void {
  if (!existsSync(`${CORPUS}/users/labels-dev.jsonl`)) {
    console.log(`(no labeled corpora at ${CORPUS}: the quality tables are skipped)\n`);
    return;
  }
  const fit = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/fit-judge.ts'], { encoding: 'utf8' }).stdout;
  const cv = fitRows(fit, /^cross-validated/m);
  const floors = fitRows(fit, /^deterministic floors alone/m);
  for (const { source, title, dir } of SETS) {
    const peers = spawnSync(
      'python3',
      ['../shared/tools/score_real.py', `${dir}/traces`, `${dir}/labels-dev.jsonl`, '--project', '.', '--peers'],
      { encoding: 'utf8' },
    );
    console.log(`Detection quality on ${title}`);
    console.log(row(['detector', 'high-conf.', 'all segments', 'healthy alarmed', 'healthy stopped', 'delay'], WIDTHS));
    for (const line of peers.stdout.trim().split('\n')) {
      if (!line.startsWith('{')) continue;
      const r = JSON.parse(line) as Record<string, string | number | null>;
      const name = r.name === 'stallguard (project)' ? 'stallguard, shipped (in-sample)' : String(r.name);
      console.log(
        row(
          [
            name,
            String(r.recall_high),
            String(r.recall_all),
            String(r.healthy_with_alarm),
            String(r.stops_on_healthy),
            String(r.median_delay ?? '-'),
          ],
          WIDTHS,
        ),
      );
    }
    const c = cv.get(source);
    if (c) console.log(row(['stallguard, cross-validated (10 folds, grouped)', ...c], WIDTHS));
    const f = floors.get(source);
    if (f) console.log(row(['stallguard, deterministic floors alone', ...f], WIDTHS));
    console.log('');
  }
  console.log(
    "Goal on real users' sessions, cross-validated: >= 85% of high-confidence and >= 60% of all segments caught, <= 2% of healthy sessions alarmed, none stopped.\n",
  );
}

function synthetic(): void {
  const wrong = CASES.map((c) => ({ c, r: runCase(c) })).filter(({ r }) => !r.right);
  const groups = new Map<string, number>();
  for (const c of CASES) groups.set(c.id.replace(/\d.*$/, ''), (groups.get(c.id.replace(/\d.*$/, '')) ?? 0) + 1);
  console.log(
    `Synthetic suite: ${CASES.length - wrong.length}/${CASES.length} labeled Claude Code sessions right (${[...groups].map(([g, n]) => `${g} ${n}`).join(', ')})`,
  );
  for (const { c, r } of wrong) console.log(`  wrong: ${c.id} ${c.name}: did "${r.timeline}", expected ${c.expect}`);
}

corpus();
synthetic();
