import { existsSync } from 'node:fs';
import { loadConfig, stallguardHome } from '../config/load.ts';
import { gatherItems } from '../review/gather.ts';
import type { ReviewItem } from '../review/items.ts';
import { HELP as KEYS_HELP, itemText, QUESTION } from '../review/show.ts';
import { historyRoots, sessionsUnder, sizeOf } from '../scan/discover.ts';
import { type Answer, ANSWERS, appendVerdict, readVerdicts, type Verdict, verdictsFile } from '../store/verdicts.ts';
import { parse } from './_args.ts';
import { explainProblems } from './_config.ts';
import { UsageError } from './_errors.ts';
import { keyReader } from './_keys.ts';
import { Progress } from './_progress.ts';

export const summary = 'mark what stallguard flagged right or wrong, for stallguard tune';

const HELP = `usage: stallguard review [--scan [PATH...]] [--again] [--json] [--mark ID=right|wrong|skip ...]

Walks through stallguard's interventions, newest first: those in its ledger (what it did live, in shadow or
enforce mode) and, with --scan, those it would have made in the agents' own history (or in PATH...). For
each it shows the agent's calls around it (the loop marked >, repeated calls pointed back to the first,
what came after) and what the agent was told, and asks: was stallguard right to step in there?

  r right   w wrong   s skip   u undo (back one)   q quit   ? help

One key answers (no Enter needed in a terminal; from a pipe, one answer a line). Verdicts are saved as they
are given, in STALLGUARD_HOME/verdicts.jsonl (0600; short forms and counts, never outputs), so review can
stop at any point and goes on where it left off: what has a verdict, or was skipped, is not asked again.
Then stallguard tune shows what your verdicts would change.

  --again      ask about every intervention, those with a verdict too (a new answer replaces the old)
  --json       print the interventions as JSON lines, each with its id and any verdict; ask nothing
  --mark ID=V  record a verdict without asking (V: right, wrong or skip), for scripts; repeatable`;

const KEY_ANSWERS: Record<string, Answer> = { r: 'right', y: 'right', w: 'wrong', n: 'wrong', s: 'skip' };

function jsonOf(item: ReviewItem, verdict: Verdict | undefined): object {
  const { record: _record, time, ...rest } = item;
  return { ...rest, ...(time ? { time: new Date(time).toISOString() } : {}), verdict: verdict?.verdict ?? null };
}

function counts(verdicts: Iterable<Verdict>): string {
  const n = { right: 0, wrong: 0, skip: 0 };
  for (const v of verdicts) n[v.verdict]++;
  return `${n.right} right, ${n.wrong} wrong, ${n.skip} skipped`;
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('review', argv, {
    scan: { type: 'boolean' },
    again: { type: 'boolean' },
    json: { type: 'boolean' },
    mark: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length > 0 && !values.scan)
    throw new UsageError(`review: paths are read with --scan (got "${positionals[0]}")`);
  const marks = (values.mark ?? []).map((m) => {
    const [id, answer] = m.split('=');
    if (!id || !answer || !ANSWERS.includes(answer as Answer))
      throw new UsageError(`review: --mark takes ID=right, ID=wrong or ID=skip (got "${m}")`);
    return { id, answer: answer as Answer };
  });
  if (marks.length > 0 && values.json)
    throw new UsageError('review: --mark records verdicts; it does not combine with --json');
  for (const p of positionals) if (!existsSync(p)) throw new UsageError(`review: ${p}: no such file or folder`);

  const home = stallguardHome();
  const loaded = loadConfig({ cwd: process.cwd() });
  explainProblems(loaded.problems);
  let history: Parameters<typeof gatherItems>[2];
  let progress: Progress | undefined;
  if (values.scan) {
    const roots = positionals.length > 0 ? positionals : historyRoots();
    if (roots.length === 0 || !roots.some((r) => !sessionsUnder(r).next().done)) {
      if (positionals.length === 0)
        console.error(
          'stallguard review: no agent history found on this machine (~/.claude/projects, ~/.codex/sessions, ' +
            '~/.gemini/tmp); reviewing the ledger alone. Name a folder: stallguard review --scan PATH',
        );
    } else {
      const sessions = roots.flatMap((r) => [...sessionsUnder(r)]);
      const p = new Progress(
        sessions.reduce((n, s) => n + sizeOf(s), 0),
        sessions.length,
        process.stderr.isTTY ? process.stderr : undefined,
      );
      progress = p;
      history = { roots, onBytes: (n) => p.bytes(n), onSession: () => p.file() };
    }
  }
  const { items, ledgerSessions, historySessions } = gatherItems(home, loaded.config, history);
  progress?.clear();
  const { verdicts, unreadableLines } = readVerdicts(home);
  if (unreadableLines > 0)
    console.error(
      `stallguard review: ${unreadableLines} unreadable ` +
        `line${unreadableLines === 1 ? '' : 's'} in ${verdictsFile(home)} skipped`,
    );

  if (values.json) {
    for (const item of items) console.log(JSON.stringify(jsonOf(item, verdicts.get(item.id))));
    return 0;
  }

  if (marks.length > 0) {
    for (const { id, answer } of marks) {
      const found = items.filter((i) => i.id === id || i.id.startsWith(id));
      if (found.length !== 1)
        throw new UsageError(
          found.length === 0
            ? `review: no intervention with id "${id}" (stallguard review --json lists ` +
                `them${values.scan ? '' : "; those of the agents' history need --scan"})`
            : `review: "${id}" is the start of ${found.length} ids; give more of it`,
        );
      appendVerdict(home, { ...found[0]!.record, verdict: answer, time: Date.now() });
      console.log(`${found[0]!.id}: ${answer} (${found[0]!.loop})`);
    }
    return 0;
  }

  const where =
    `${ledgerSessions} session${ledgerSessions === 1 ? '' : 's'} in the ` +
    `ledger${values.scan ? ` and ${historySessions} in the agents' history` : ''}`;
  if (items.length === 0) {
    const none =
      ledgerSessions + historySessions === 0
        ? 'Nothing to review: the ledger holds no session yet (stallguard ' +
          'install registers the hook, which records in shadow mode).'
        : `Nothing to review: stallguard did not step in in ${where}.`;
    const scanToo = " To review what it would have done in your agents' past sessions: stallguard review --scan";
    console.log(`${none}${values.scan ? '' : scanToo}`);
    return 0;
  }
  const pending = values.again ? items : items.filter((i) => !verdicts.has(i.id));
  if (pending.length === 0) {
    const mine = items.map((i) => verdicts.get(i.id)!);
    console.log(
      `All ${items.length} interventions in ${where} have a verdict (${counts(mine)}).\n` +
        'stallguard tune shows what they would change; stallguard review --again asks them again.',
    );
    return 0;
  }
  console.log(
    `${pending.length} intervention${pending.length === 1 ? '' : 's'} to review, newest ` +
      `first (from ${where}). Verdicts are saved as you go, in ${verdictsFile(home)}.\n`,
  );
  const keys = keyReader(process.stdin);
  const given: Verdict[] = [];
  let i = 0;
  try {
    while (i < pending.length) {
      const item = pending[i]!;
      console.log(
        itemText(
          item,
          i + 1,
          pending.length,
          (given.findLast((v) => v.id === item.id) ?? verdicts.get(item.id))?.verdict,
        ),
      );
      let answered = false;
      while (!answered) {
        process.stdout.write(QUESTION);
        const key = await keys.next();
        if (key === undefined || key === 'q') {
          process.stdout.write('\n');
          return finish(
            given,
            pending.slice(i).filter((p) => !verdicts.has(p.id) && !given.some((v) => v.id === p.id)).length,
            home,
          );
        }
        if (key === '?' || key === 'h') {
          process.stdout.write('\n' + KEYS_HELP + '\n');
          continue;
        }
        if (key === 'u' || key === 'b') {
          process.stdout.write('\n');
          if (i === 0) {
            console.log('  (this is the first one)');
            continue;
          }
          i--;
          answered = true;
          continue;
        }
        const answer = KEY_ANSWERS[key];
        if (!answer) {
          if (key.trim()) process.stdout.write(`\n  (press r, w, s, u or q)\n`);
          continue;
        }
        const v: Verdict = { ...item.record, verdict: answer, time: Date.now() };
        appendVerdict(home, v);
        given.push(v);
        process.stdout.write(`${answer}\n\n`);
        i++;
        answered = true;
      }
    }
    return finish(given, 0, home);
  } finally {
    keys.close();
  }
}

function finish(given: Verdict[], left: number, home: string): number {
  const latest = new Map(given.map((v) => [v.id, v]));
  const all = readVerdicts(home).verdicts;
  console.log(
    `${latest.size === 0 ? 'No verdict given' : `Given: ${counts(latest.values())}`}` +
      `${left > 0 ? `; ${left} left for next time (stallguard review goes on from there)` : ''}.`,
  );
  if ([...all.values()].some((v) => v.verdict !== 'skip'))
    console.log(
      'Next: stallguard tune shows what your verdicts would change on your history; stallguard tune --write keeps it.',
    );
  return 0;
}
