// Detection quality, printed by `npm run bench`: on the hand-labeled real trajectories of
// ../shared/corpus (labels-dev.jsonl), the segments caught, the delay, the healthy trajectories alarmed and
// the stops on resolved runs, for the shipped build (in-sample: it was fitted on this file) and
// cross-validated (each fold scored by a model fitted without it), next to the published rule sets as
// ../shared/tools/score_real.py re-implements them; then the synthetic suite of labeled Claude Code sessions.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { CASES } from '../test/synthetic/cases.ts';
import { runCase } from '../test/synthetic/run.ts';

const CORPUS = '../shared/corpus';
const row = (cells: string[], widths: number[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');

function corpus(): void {
  if (!existsSync(`${CORPUS}/labels-dev.jsonl`)) {
    console.log(`(no labeled corpus at ${CORPUS}: the corpus table is skipped)\n`);
    return;
  }
  const score = spawnSync('python3', ['../shared/tools/score_real.py', `${CORPUS}/traces`, `${CORPUS}/labels-dev.jsonl`, '--project', '.', '--peers'], { encoding: 'utf8' });
  const cv = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/fit-judge.ts', `${CORPUS}/traces`, `${CORPUS}/labels-dev.jsonl`], { encoding: 'utf8' });
  const widths = [42, 14, 12, 16, 14, 10];
  console.log('Detection quality on labels-dev.jsonl (272 real trajectories, 67 stuck segments, 220 healthy)');
  console.log(row(['detector', 'high-conf.', 'all segments', 'healthy alarmed', 'false stops', 'median delay'], widths));
  for (const line of score.stdout.trim().split('\n')) {
    if (!line.startsWith('{')) continue;
    const r = JSON.parse(line) as Record<string, string | number | null>;
    const name = r.name === 'stallguard (project)' ? 'stallguard, shipped (in-sample)' : String(r.name);
    console.log(row([name, String(r.recall_high), String(r.recall_all), String(r.healthy_with_alarm), String(r.stops_on_resolved_healthy), String(r.median_delay ?? '-')], widths));
  }
  const m = cv.stdout.match(/cross-validated \((\d+) folds\): high (\S+), all (\S+), healthy alarmed (\S+), stops on resolved healthy (\S+), median delay (\S+)/);
  if (m) console.log(row([`stallguard, ${m[1]}-fold cross-validated`, m[2]!.replace(/,$/, ''), m[3]!.replace(/,$/, ''), m[4]!.replace(/,$/, ''), m[5]!.replace(/,$/, ''), m[6]!], widths));
  const f = cv.stdout.match(/deterministic floors alone, all data: high (\S+), all (\S+), healthy alarmed (\S+), stops on resolved healthy (\S+), median delay (\S+)/);
  if (f) console.log(row(['stallguard, deterministic floors alone', f[1]!.replace(/,$/, ''), f[2]!.replace(/,$/, ''), f[3]!.replace(/,$/, ''), f[4]!.replace(/,$/, ''), f[5]!], widths));
  console.log('Goal: >= 90% of segments caught, <= 2% of healthy trajectories alarmed, no stop on a resolved run.\n');
}

function synthetic(): void {
  const wrong = CASES.map((c) => ({ c, r: runCase(c) })).filter(({ r }) => !r.right);
  const groups = new Map<string, number>();
  for (const c of CASES) groups.set(c.id.replace(/\d.*$/, ''), (groups.get(c.id.replace(/\d.*$/, '')) ?? 0) + 1);
  console.log(`Synthetic suite: ${CASES.length - wrong.length}/${CASES.length} labeled Claude Code sessions right (${[...groups].map(([g, n]) => `${g} ${n}`).join(', ')})`);
  for (const { c, r } of wrong) console.log(`  wrong: ${c.id} ${c.name}: did "${r.timeline}", expected ${c.expect}`);
}

corpus();
synthetic();
