import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../config/load.ts';
import { historyRoots, sessionsUnder } from '../scan/discover.ts';
import { PRICES_AS_OF } from '../scan/prices.ts';
import { tokenTotal } from '../scan/spend.ts';
import { scanRoots } from '../scan/scan.ts';
import { sessionJson } from '../scan/scan-json.ts';
import { defaultThreads, MAX_THREADS } from '../scan/threads.ts';
import type { SessionScan } from '../scan/scan-session.ts';
import type { ScanTotals } from '../scan/totals.ts';
import { actionCounts, compact, cost, percent, plural } from '../report/format.ts';
import { parse } from './_args.ts';
import { explainProblems } from './_config.ts';
import { UsageError } from './_errors.ts';
import { Progress } from './_progress.ts';

export const summary = 'what stallguard would have done in past sessions';

function threadsOf(value: string | undefined): number {
  if (value === undefined) return defaultThreads();
  if (!/^[1-9]\d*$/.test(value))
    throw new UsageError(`scan: --threads must be a whole number of threads, 1 or more (got "${value}")`);
  return Number(value);
}

const HELP = `usage: stallguard scan [PATH...] [--json] [--threads N]

Reads past agent sessions and reports per session what stallguard would have done, and what its stalls
cost: the calls and tokens spent inside them. Default: the agents' own history on this machine, Claude
Code (~/.claude/projects, ~/.config/claude/projects, CLAUDE_CONFIG_DIR; subagents with their session),
Codex (~/.codex/sessions, CODEX_HOME), Gemini CLI (~/.gemini/tmp/*/chats), Copilot CLI
(~/.copilot/session-state, COPILOT_HOME), Qwen Code (~/.qwen/projects, QWEN_HOME) and pi (~/.pi/agent/sessions,
PI_CODING_AGENT_DIR). opencode keeps its history in an SQLite database Node 20 cannot read: give scan the
file \`opencode export <session id>\` writes. PATH: files or folders of those, or of the generic trace
format. With no history on this machine it replays a bundled example session (with --json it prints
nothing: the example is not a session of yours).

With --json: one line per session {session, agent, file, calls, stalls: [{step, action, signals, from, to,
calls, tokens, cost, ...}], tokens, cost, inside, afterStop, ...}. Unreadable lines are counted, never fatal.
--threads N: read files in N threads (default: one per core, at most ${MAX_THREADS}); the output is the same.`;

export function examplesDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', 'examples');
}

function printSession(s: SessionScan, all: boolean): void {
  if (s.stalls.length === 0 && !all) return;
  const head = [s.agent, s.project, plural(s.calls, 'call'), plural(s.stalls.length, 'stall')]
    .filter(Boolean)
    .join(' · ');
  const inside =
    s.stalls.length > 0 ? ` · ${plural(s.inside.calls, 'call')} and ${cost(s.inside.spend)} inside them` : '';
  console.log(`${s.file}\n  ${head}${inside}`);
  for (const st of s.stalls) {
    const where = st.file ? ` [${st.agent}]` : st.agent === 'main' ? '' : ` [${st.agent}]`;
    const spent =
      st.calls > 0
        ? `  ${plural(st.calls, 'call')}, ${compact(tokenTotal(st.spend.tokens))} tokens, ${cost(st.spend)}`
        : '';
    const after =
      st.after === 'repeated' ? ', then kept repeating' : st.after === 'changed' ? ', then changed approach' : '';
    // `step` counts from 0 (as in --json and replay --json); a person counts calls from 1
    console.log(`  call ${String(st.step + 1).padEnd(5)}${st.action.padEnd(6)}${where} ${st.loop}${spent}${after}`);
  }
}

function printTotals(t: ScanTotals): void {
  const agents = Object.entries(t.byAgent)
    .map(([a, n]) => `${a} ${n}`)
    .join(', ');
  console.log(
    `\n${plural(t.sessions, 'session')} scanned${agents ? ` (${agents})` : ''}: ${plural(t.calls, 'tool call')}, ` +
      `${compact(tokenTotal(t.total.tokens))} tokens, ${cost(t.total)}.`,
  );
  if (t.stalls === 0) {
    console.log('No stalls found.');
  } else {
    const interventions = `${plural(t.stalls, 'intervention')} (${actionCounts(t.actions)})`;
    console.log(`${plural(t.withStalls, 'session')} with stalls: ${interventions}.`);
    console.log(
      `Inside stalls: ${plural(t.inside.calls, 'call')} (${percent(t.inside.calls, t.calls)} of ` +
        `all), ${cost(t.inside.spend)} (${percent(t.inside.spend.usd, t.total.usd)} of the cost).`,
    );
    if (t.afterStop.calls > 0)
      console.log(
        'After the point where stallguard would have stopped the ' +
          `agent: ${plural(t.afterStop.calls, 'call')}, ${cost(t.afterStop.spend)}.`,
      );
    const tools = Object.entries(t.tools)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([tool, n]) => `${tool} ${n}`)
      .join(', ');
    console.log(`Tools in stalls: ${tools}.`);
  }
  const skipped = [
    t.skippedLines ? plural(t.skippedLines, 'unreadable line') + ' skipped' : '',
    t.unreadableFiles ? plural(t.unreadableFiles, 'file') + ' not in a format stallguard reads' : '',
  ].filter(Boolean);
  if (skipped.length) console.log(skipped.join('; ') + '.');
  console.log(
    `Costs at list prices as of ${PRICES_AS_OF}` +
      `${t.total.unpriced ? `; ${compact(t.total.unpriced)} tokens of models without a price are not in them` : ''}.`,
  );
  if (t.stalls > 0) console.log('As tables or a page: stallguard report --scan [--html stalls.html]');
}

export async function run(argv: string[]): Promise<number> {
  const { values, positionals } = parse('scan', argv, {
    json: { type: 'boolean' },
    threads: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const threads = threadsOf(values.threads);
  for (const p of positionals) if (!existsSync(p)) console.error(`stallguard scan: ${p}: no such file or folder`);
  let roots = positionals.length > 0 ? positionals.filter((p) => existsSync(p)) : historyRoots();
  // history folders that exist but hold no session (a fresh install) are no history either
  const demo = positionals.length === 0 && !roots.some((r) => !sessionsUnder(r).next().done);
  if (demo && values.json) {
    // a JSON reader takes every line for a session of this machine: the example is for a person's eyes only
    console.error(
      'stallguard scan: no agent history found on this machine (~/.claude/projects, ' +
        '~/.codex/sessions, ~/.gemini/tmp, ~/.copilot/session-state, ~/.qwen/projects, ' +
        '~/.pi/agent/sessions); nothing to report. `stallguard scan` without --json shows a bundled example.',
    );
    return 0;
  }
  if (demo) {
    roots = [examplesDir()];
    console.log(
      'No agent history found on this machine (~/.claude/projects, ~/.codex/sessions, ' +
        '~/.gemini/tmp, ~/.copilot/session-state, ~/.qwen/projects, ~/.pi/agent/sessions). ' +
        'Here is stallguard on a bundled example session:\n',
    );
  }
  const loaded = loadConfig({ cwd: process.cwd() });
  explainProblems(loaded.problems);
  // a reader that stops early (`| head`) closes the pipe, and the next line fails to write after this
  // function has moved on: said in one line, as main says it of a write that fails at once
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code !== 'EPIPE') throw e;
    console.error('stallguard scan: output closed');
    process.exit(1);
  });
  let progress: Progress | undefined;
  const totals = await scanRoots(
    roots,
    loaded.config,
    {
      onStart: (bytes, count) => {
        progress = new Progress(bytes, count, process.stderr.isTTY ? process.stderr : undefined);
      },
      onBytes: (n) => progress?.bytes(n),
      onFile: () => progress?.file(),
      onSession: (s) => {
        progress?.clear();
        if (values.json) console.log(JSON.stringify(sessionJson(s)));
        else printSession(s, demo);
      },
    },
    threads,
  );
  progress?.clear();
  if (!values.json) printTotals(totals);
  return positionals.length > 0 && roots.length < positionals.length ? 1 : 0;
}
