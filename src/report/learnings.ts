import type { ToolClass } from '../types.ts';
import { refId } from '../core/call-ref.ts';
import type { Verdict } from '../store/verdicts.ts';
import type { LedgerSession } from './from-ledger.ts';
import { int, plural } from './format.ts';

// The patterns worth writing into the agent's instructions: which tools loop, the calls repeated most,
// and the failures behind them, from the ledger. The ledger keeps no outputs (they can hold secrets), so
// a failure is known by its signature's digest: enough to say "the same failure each time", not to quote it.
// The person's verdicts (stallguard review) weigh in: a stall they marked wrong is no loop to learn from,
// and the calls of its loop are left out of the advice, unless a stall they marked right has them too.

export interface LoopingTool {
  tool: string;
  stalls: number;
  sessions: number;
  /** Of its stalls, those the person marked right. */
  confirmed: number;
}

export interface RepeatedCall {
  short: string;
  tool: string;
  cls: ToolClass;
  times: number;
  sessions: number;
  failed: number;
  /** How many different failures the failed runs had. */
  distinctFailures: number;
}

export interface Learnings {
  sessions: number;
  withStalls: number;
  tools: LoopingTool[];
  repeated: RepeatedCall[];
  advice: { cls: ToolClass; text: string; evidence: string }[];
  /** What the person's verdicts took out: stalls marked wrong, and the calls of their loops. */
  leftOut: { stalls: number; calls: string[] };
}

const ADVICE: Record<ToolClass, string> = {
  test:
    'After a failing test run, read the failure and change something ' +
    'before running the tests again; when the same failure comes back ' +
    'twice, question the assumption behind the fix instead of re-running.',
  exec:
    'When a command fails the same way twice, the command, its arguments or ' +
    'its environment is wrong: read the error and check them before a third run.',
  search:
    'When a search finds nothing twice, the name or pattern is probably wrong: ' +
    'list the folder or search for part of the name instead of trying variants.',
  read: 'Note what a file says instead of reading it again; read a file again only after it changed.',
  edit: "When an edit is rejected, read the file's current text around the change and base the next edit on it.",
  spawn: 'Do the work in this agent instead of starting another agent for it.',
  poll:
    'When waiting on a background job, wait longer between checks (sleep, or the ' +
    "job's own wait command) instead of polling the same status again and again.",
  bookkeeping: 'Update the task list when a step is done, not between every call.',
  other: 'When a tool gives the same result twice, a third call will too: change the input or the approach.',
};

export function learn(
  ledger: LedgerSession[],
  top = 10,
  verdicts: ReadonlyMap<string, Verdict> = new Map(),
): Learnings {
  const tools = new Map<string, { stalls: number; sessions: Set<string>; confirmed: number }>();
  const calls = new Map<string, RepeatedCall & { failures: Map<string, number> }>();
  const confirmedCalls = new Set<string>();
  const wrongCalls = new Set<string>();
  for (const v of verdicts.values())
    for (const c of v.calls) {
      if (v.verdict === 'right') confirmedCalls.add(c);
      else if (v.verdict === 'wrong') wrongCalls.add(c);
    }
  const notLearnt = (short: string) => wrongCalls.has(short) && !confirmedCalls.has(short);
  let withStalls = 0;
  let leftOut = 0;
  for (const { session, repeats } of ledger) {
    if (session.stalls.length > 0) withStalls++;
    for (const st of session.stalls) {
      const verdict = st.ref ? verdicts.get(refId(session.id, st.ref))?.verdict : undefined;
      if (verdict === 'wrong') {
        leftOut++;
        continue;
      }
      for (const tool of st.tools) {
        const t = tools.get(tool) ?? { stalls: 0, sessions: new Set<string>(), confirmed: 0 };
        t.stalls++;
        t.sessions.add(session.id);
        if (verdict === 'right') t.confirmed++;
        tools.set(tool, t);
      }
    }
    for (const [key, r] of repeats) {
      if (notLearnt(r.short)) continue;
      let c = calls.get(key);
      if (!c) {
        c = {
          short: r.short,
          tool: r.tool,
          cls: r.cls,
          times: 0,
          sessions: 0,
          failed: 0,
          distinctFailures: 0,
          failures: new Map(),
        };
        calls.set(key, c);
      }
      c.times += r.times;
      c.sessions++;
      c.failed += r.failed;
      for (const [f, n] of r.failures) c.failures.set(f, (c.failures.get(f) ?? 0) + n);
    }
  }
  const repeated = [...calls.values()]
    .map(({ failures, ...c }) => ({ ...c, distinctFailures: failures.size }))
    .sort((a, b) => b.times - a.times || (a.short < b.short ? -1 : 1))
    .slice(0, top);
  const advice: Learnings['advice'] = [];
  for (const c of repeated) {
    if (advice.some((a) => a.cls === c.cls)) continue;
    advice.push({ cls: c.cls, text: ADVICE[c.cls], evidence: evidence(c) });
  }
  return {
    sessions: ledger.length,
    withStalls,
    tools: [...tools.entries()]
      .map(([tool, t]) => ({ tool, stalls: t.stalls, sessions: t.sessions.size, confirmed: t.confirmed }))
      .sort((a, b) => b.stalls - a.stalls || (a.tool < b.tool ? -1 : 1)),
    repeated,
    advice,
    leftOut: { stalls: leftOut, calls: [...wrongCalls].filter(notLearnt).sort() },
  };
}

function evidence(c: RepeatedCall): string {
  const runs = `\`${c.short}\` ran ${int(c.times)} times in ${plural(c.sessions, 'session')}`;
  if (c.failed === 0) return runs;
  const how =
    c.distinctFailures === 1
      ? c.failed === 1
        ? ''
        : ' with the same failure'
      : ` with ${plural(c.distinctFailures, 'different failure')}`;
  const failing = c.failed === c.times ? 'every time' : c.failed === 1 ? 'once' : `${int(c.failed)} times`;
  return `${runs}, failing ${failing}${how}`;
}

export function learningsText(l: Learnings): string {
  const out: string[] = [
    `# Loops stallguard saw in your agents' sessions`,
    '',
    `From the ledger: ${plural(l.sessions, 'session')}, ${int(l.withStalls)} with stalls.`,
  ];
  const leftOut =
    l.leftOut.stalls + l.leftOut.calls.length > 0
      ? `Left out, from your verdicts in stallguard review: ${plural(l.leftOut.stalls, 'stall')} you marked wrong${
          l.leftOut.calls.length > 0
            ? `, and the calls of their loops (${l.leftOut.calls
                .slice(0, 5)
                .map((c) => '`' + c + '`')
                .join(', ')}${l.leftOut.calls.length > 5 ? ', …' : ''})`
            : ''
        }.`
      : '';
  if (l.tools.length === 0 && l.repeated.length === 0) {
    out.push('', 'Nothing repeated often enough to be worth an instruction yet.');
    if (leftOut) out.push('', leftOut);
    return out.join('\n') + '\n';
  }
  if (l.tools.length > 0) {
    out.push('', '## Tools that loop', '');
    for (const t of l.tools)
      out.push(
        `- ${t.tool}: ${plural(t.stalls, 'stall')} in ${plural(t.sessions, 'session')}` +
          `${t.confirmed > 0 ? ` (${t.confirmed} marked right by you)` : ''}`,
      );
  }
  if (l.repeated.length > 0) {
    out.push('', '## Calls repeated most', '');
    for (const c of l.repeated) out.push(`- ${evidence(c)}`);
  }
  if (l.advice.length > 0) {
    out.push('', '## Worth writing into CLAUDE.md / AGENTS.md', '');
    for (const a of l.advice) out.push(`- ${a.text} (${a.evidence}.)`);
  }
  if (leftOut) out.push('', leftOut);
  return out.join('\n') + '\n';
}
