import { loadConfig, stallguardHome } from '../config/load.ts';
import { tunedLine } from '../config/tuned-text.ts';
import { safeName } from '../store/paths.ts';
import { sessionFiles, summarizeSession } from '../store/read-ledger.ts';
import { parseOptions } from './_args.ts';
import { explainProblems } from './_config.ts';
import { UsageError } from './_errors.ts';

export const summary = 'what stallguard holds';

export function run(argv: string[]): number {
  const { values } = parseOptions('status', argv, {
    session: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(
      'usage: stallguard status [--session ID] [--json]\n\nThe mode in force here (and ' +
        'any mistake in the config files, and the settings stallguard tune fitted to\n' +
        'your verdicts), and per session the tool calls observed, stalls and spawn refusals.',
    );
    return 0;
  }
  const home = stallguardHome();
  const { config, problems, tuned } = loadConfig({ cwd: process.cwd() });
  const mode = config.mode;
  let sessions = sessionFiles(home).map(summarizeSession);
  if (values.session !== undefined) {
    sessions = sessions.filter(
      (s) => s.id === values.session || s.file.endsWith(`/${safeName(values.session!)}.jsonl`),
    );
    if (sessions.length === 0) throw new UsageError(`status: no session "${values.session}" in ${home}`);
  }
  sessions.sort((a, b) => b.lastActivity - a.lastActivity);
  if (values.json) {
    const out = sessions.map((s) => ({
      id: s.id,
      calls: s.calls,
      stalls: s.stalls,
      refusals: s.refusals,
      ...(s.agent ? { agent: s.agent } : {}),
      ...(s.cwd ? { cwd: s.cwd } : {}),
      lastActivity: new Date(s.lastActivity).toISOString(),
      ...(values.session !== undefined ? { decisions: s.decisions } : {}),
    }));
    console.log(
      JSON.stringify({
        mode,
        sessions: out,
        ...(problems.length > 0 ? { configProblems: problems } : {}),
        ...(tuned.length > 0 ? { tuned } : {}),
      }),
    );
    return 0;
  }
  console.log(`mode: ${mode}   home: ${home}   sessions: ${sessions.length}`);
  for (const t of tuned)
    console.log(`${tunedLine(t)}; undo: stallguard tune --reset${t.scope === 'project' ? ' --scope project' : ''}`);
  explainProblems(problems);
  for (const s of sessions.slice(0, values.session !== undefined ? 1 : 20)) {
    console.log(
      `  ${s.id}  ${s.agent ?? ''}  ${s.calls} calls, ${s.stalls} stalls, ${s.refusals} refusals  ${s.cwd ?? ''}`,
    );
    if (values.session !== undefined)
      for (const d of s.decisions)
        console.log(
          `    ${d.time ? new Date(d.time).toISOString() : ''} ${d.mode === 'enforce' ? '' : `(${d.mode}) `}` +
            `${d.decision.action}: ${d.decision.stopReason ?? d.decision.message ?? ''}`,
        );
  }
  if (sessions.length > 20 && values.session === undefined)
    console.log(`  … and ${sessions.length - 20} more (stallguard status --json lists all)`);
  return 0;
}
