import type { ReportData, Row, Summary } from './model.ts';
import { compact, cost, int, percent, plural } from './format.ts';
import { tokenTotal } from '../scan/spend.ts';

// The report for a terminal: plain text tables, so it reads the same in a pipe, a CI log or a pager.

export function table(headers: string[], rows: string[][], numeric: boolean[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const cell = (text: string, i: number) => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const line = (cells: string[]) => cells.map(cell).join('  ').trimEnd();
  return [line(headers), line(widths.map((w) => '─'.repeat(w))), ...rows.map(line)].join('\n');
}

function rowsOf(rows: Row[], tokens: boolean, limit: number): string[][] {
  return rows
    .slice(0, limit)
    .map((r) => [
      r.key,
      int(r.stalls),
      int(r.sessions.size),
      int(r.calls),
      ...(tokens ? [compact(tokenTotal(r.spend.tokens)), cost(r.spend)] : []),
    ]);
}

function grouped(title: string, first: string, rows: Row[], tokens: boolean, limit = 15): string {
  const headers = [first, 'stalls', 'sessions', 'calls inside', ...(tokens ? ['tokens inside', 'cost inside'] : [])];
  const more = rows.length > limit ? `\n… and ${rows.length - limit} more` : '';
  return `${title}\n${table(headers, rowsOf(rows, tokens, limit), [false, true, true, true, true, true])}${more}`;
}

export function reportText(data: ReportData, s: Summary): string {
  const tokens = s.tokens;
  const out: string[] = [];
  const what =
    data.source === 'scan'
      ? 'what stallguard would have done in past sessions (scan)'
      : 'what stallguard decided (ledger)';
  out.push(`stallguard report: ${what}`);
  out.push(
    `${plural(s.sessions, 'session')}, ${plural(s.calls, 'tool call')}` +
      `${tokens && s.spend ? `, ${cost(s.spend)}` : ''}; ` +
      `${plural(s.withStalls, 'session')} with stalls, ${plural(s.stalls, 'intervention')}.`,
  );
  if (s.stalls === 0) {
    out.push('No stalls.');
    return out.join('\n') + '\n';
  }
  const spent =
    tokens && s.inside.spend && s.spend
      ? `, ${cost(s.inside.spend)} (${percent(s.inside.spend.usd, s.spend.usd)} of the cost)`
      : '';
  out.push(`Inside stalls: ${plural(s.inside.calls, 'call')} (${percent(s.inside.calls, s.calls)})${spent}.`);
  if (s.afterStop.calls > 0)
    out.push(
      `After a stop: ${plural(s.afterStop.calls, 'call')}` +
        `${tokens && s.afterStop.spend ? `, ${cost(s.afterStop.spend)}` : ''}.`,
    );
  out.push('', grouped('Stalls per tool', 'tool', s.byTool, tokens));
  out.push('', grouped('Stalls per signal', 'signal', s.bySignal, tokens));
  out.push('', grouped('Stalls per project', 'project', s.byProject, tokens));
  out.push('', grouped('Top loops', 'loop', s.byLoop, tokens, 10));
  const head =
    data.source === 'ledger'
      ? ['intervention', 'mode', 'times', 'then changed approach', 'kept repeating', 'no further call']
      : ['intervention', 'times', 'then changed approach', 'kept repeating', 'no further call'];
  const rows = s.interventions.map((i) => [
    i.action,
    ...(data.source === 'ledger' ? [i.mode ?? ''] : []),
    int(i.total),
    int(i.changed),
    int(i.repeated),
    int(i.ended),
  ]);
  const note = data.source === 'scan' ? '\n(in a scan the agent was never told: this is what it did on its own)' : '';
  out.push(
    '',
    `Interventions and what the agent did next${note}`,
    table(
      head,
      rows,
      head.map((_, i) => i >= head.length - 4),
    ),
  );
  return out.join('\n') + '\n';
}
