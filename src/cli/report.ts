import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, stallguardHome } from '../config/load.ts';
import { historyRoots } from '../scan/discover.ts';
import { scanRoots } from '../scan/scan.ts';
import { defaultThreads } from '../scan/threads.ts';
import { SESSIONS_DIR } from '../store/paths.ts';
import { sessionFiles } from '../store/read-ledger.ts';
import { readLedgerSession, type LedgerSession } from '../report/from-ledger.ts';
import { fromScan } from '../report/from-scan.ts';
import { reportHtml } from '../report/html.ts';
import { learn, learningsText } from '../report/learnings.ts';
import { markVerdicts } from '../report/verdicts.ts';
import { readVerdicts } from '../store/verdicts.ts';
import { type ReportData, type ReportSession, summarize } from '../report/model.ts';
import { reportText } from '../report/tables.ts';
import { parse } from './_args.ts';
import { explainProblems } from './_config.ts';
import { UsageError } from './_errors.ts';
import { errnoText } from '../core/errno.ts';
import { Progress } from './_progress.ts';

export const summary = 'tables and a page of the stalls, what they cost, and what to tell the agent';

const HELP = `usage: stallguard report [--scan [PATH...]] [--html FILE] [--learnings]

Stalls per tool, per signal and per project, the top loops, and the interventions with what the agent
did next. From the ledger (STALLGUARD_HOME/sessions) by default: what stallguard decided live. With
--scan, from the agents' own history (or PATH...), as \`stallguard scan\` reads it: what it would have
decided, and the tokens and cost spent inside the stalls.

  --html FILE   write one self-contained page with charts (a timeline per session, the cost inside
                stalls, stalls per tool) instead of the tables; it loads nothing from the network
  --learnings   the patterns worth writing into CLAUDE.md / AGENTS.md, from the ledger

Stalls you marked in stallguard review are ringed on the page (right or wrong); those marked wrong are no
learning.`;

function ledgerSessions(home: string): LedgerSession[] {
  return sessionFiles(home).map(readLedgerSession);
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('report', argv, {
    scan: { type: 'boolean' },
    html: { type: 'string' },
    learnings: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  if (positionals.length > 0 && !values.scan)
    throw new UsageError(`report: paths are read with --scan (got "${positionals[0]}")`);
  if (values.learnings && values.scan)
    throw new UsageError('report: --learnings reads the ledger; it does not combine with --scan');
  if (values.learnings && values.html !== undefined)
    throw new UsageError('report: --learnings prints text; it does not combine with --html');
  if (values.html === '') throw new UsageError('report: --html needs a file name');

  const home = stallguardHome();
  if (values.learnings) {
    process.stdout.write(learningsText(learn(ledgerSessions(home), 10, readVerdicts(home).verdicts)));
    return 0;
  }

  let data: ReportData;
  if (values.scan) {
    for (const p of positionals) if (!existsSync(p)) throw new UsageError(`report: ${p}: no such file or folder`);
    const roots = positionals.length > 0 ? positionals : historyRoots();
    if (roots.length === 0) {
      console.log(
        'No agent history found on this machine (~/.claude/projects, ' +
          '~/.codex/sessions, ~/.gemini/tmp). Name a folder: stallguard report --scan PATH',
      );
      return 0;
    }
    const loaded = loadConfig({ cwd: process.cwd() });
    explainProblems(loaded.problems);
    const sessions: ReportSession[] = [];
    let progress: Progress | undefined;
    const totals = await scanRoots(
      roots,
      loaded.config,
      {
        onStart: (bytes, count) =>
          (progress = new Progress(bytes, count, process.stderr.isTTY ? process.stderr : undefined)),
        onBytes: (n) => progress?.bytes(n),
        onFile: () => progress?.file(),
        onSession: (s) => sessions.push(fromScan(s)),
      },
      defaultThreads(),
    );
    progress?.clear();
    data = { source: 'scan', from: roots, sessions, skippedLines: totals.skippedLines };
  } else {
    const ledger = ledgerSessions(home);
    if (ledger.length === 0) {
      console.log(
        `No sessions in the ledger yet (${join(home, SESSIONS_DIR)}). Install the hook ` +
          `(stallguard install), or report on the agents' history: stallguard report --scan`,
      );
      return 0;
    }
    data = {
      source: 'ledger',
      from: [home],
      sessions: ledger.map((l) => l.session),
      skippedLines: ledger.reduce((n, l) => n + l.unreadableLines, 0),
    };
  }

  data = markVerdicts(data, readVerdicts(home).verdicts);
  const s = summarize(data);
  if (values.html !== undefined) {
    try {
      writeFileSync(values.html, reportHtml(data, s));
    } catch (e) {
      throw new UsageError(`report: cannot write ${values.html}: ${errnoText(e)}`);
    }
    console.log(`Wrote ${values.html}: ${s.sessions} sessions, ${s.stalls} stalls.`);
    return 0;
  }
  process.stdout.write(reportText(data, s));
  return 0;
}
