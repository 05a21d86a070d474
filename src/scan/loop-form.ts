import type { CallStep } from '../types.ts';

// A loop in short form for tables and reports: the calls of one round and how many rounds, from the
// calls a stall covered. The engine's own wording lives in its messages; this works from the calls alone,
// so it reads the same for a replayed history and for the ledger.

export function loopForm(calls: readonly CallStep[]): string {
  if (calls.length === 0) return '';
  for (let period = 1; period <= calls.length / 2; period++) {
    if (calls.length % period !== 0) continue;
    if (calls.every((c, i) => c.key === calls[i % period]!.key))
      return `${calls
        .slice(0, period)
        .map((c) => '`' + c.short + '`')
        .join(' → ')} x${calls.length / period}`;
  }
  // no exact round (near-duplicates, varied retries): the most frequent calls
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.short, (counts.get(c.short) ?? 0) + 1);
  const top = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
  return (
    top.map(([short, n]) => '`' + short + '`' + (n > 1 ? ` x${n}` : '')).join(', ') + (counts.size > 3 ? ', …' : '')
  );
}

/** The distinct tools of the calls, in order of first use. */
export function loopTools(calls: readonly CallStep[]): string[] {
  return [...new Set(calls.map((c) => c.tool))];
}
