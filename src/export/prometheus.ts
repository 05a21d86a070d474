import type { Fleet } from './fleet.ts';
import { STEP_BUCKETS } from './fleet.ts';

// node_exporter's textfile format (the Prometheus text exposition format): totals over the whole ledger,
// so the file can be rewritten at any time and the counters only grow as the ledger does.

const escapeValue = (v: string) => v.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

function labels(l: Record<string, string>): string {
  const parts = Object.entries(l).map(([k, v]) => `${k}="${escapeValue(v)}"`);
  return parts.length ? `{${parts.join(',')}}` : '';
}

function count<T>(
  items: T[],
  key: (t: T) => Record<string, string>,
  value: (t: T) => number = () => 1,
): [Record<string, string>, number][] {
  const m = new Map<string, [Record<string, string>, number]>();
  for (const it of items) {
    const l = key(it);
    const k = JSON.stringify(l);
    const e = m.get(k) ?? [l, 0];
    e[1] += value(it);
    m.set(k, e);
  }
  return [...m.values()].sort((a, b) => (JSON.stringify(a[0]) < JSON.stringify(b[0]) ? -1 : 1));
}

export function prometheusText(f: Fleet): string {
  const out: string[] = [];
  const metric = (name: string, type: string, help: string, rows: [Record<string, string>, number][]) => {
    out.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
    for (const [l, v] of rows) out.push(`${name}${labels(l)} ${v}`);
  };
  metric('stallguard_sessions_total', 'counter', 'Agent sessions in the stallguard ledger.', [[{}, f.sessions]]);
  metric('stallguard_calls_total', 'counter', 'Tool calls stallguard observed.', [[{}, f.calls]]);
  metric(
    'stallguard_detections_total',
    'counter',
    'Interventions stallguard decided (in shadow mode: would have made), ' +
      "by the loop's first tool, the first signal, the action and the mode.",
    count(f.stalls, (s) => ({ tool: s.tool, signal: s.signal, action: s.action, mode: s.mode ?? '' })),
  );
  metric(
    'stallguard_stall_calls_total',
    'counter',
    "Tool calls inside stalls, by the loop's first tool.",
    count(
      f.stalls,
      (s) => ({ tool: s.tool }),
      (s) => s.calls,
    ),
  );
  const withTokens = f.stalls.filter((s) => s.tokens);
  metric(
    'stallguard_stall_tokens_total',
    'counter',
    "Model tokens spent inside stalls, by kind, from the agents' transcripts found on this machine.",
    (['input', 'output', 'cacheWrite', 'cacheRead'] as const).map((k) => [
      { type: k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase()) },
      withTokens.reduce((n, s) => n + s.tokens![k], 0),
    ]),
  );
  const spans = f.stalls.map((s) => s.span).filter((n): n is number => n !== undefined);
  out.push(
    '# HELP stallguard_detection_steps Calls in the loop when stallguard detected it.',
    '# TYPE stallguard_detection_steps histogram',
  );
  for (const le of STEP_BUCKETS)
    out.push(`stallguard_detection_steps_bucket{le="${le}"} ${spans.filter((n) => n <= le).length}`);
  out.push(
    `stallguard_detection_steps_bucket{le="+Inf"} ${spans.length}`,
    `stallguard_detection_steps_sum ${spans.reduce((a, b) => a + b, 0)}`,
    `stallguard_detection_steps_count ${spans.length}`,
  );
  return out.join('\n') + '\n';
}
