import type { TokenCounts } from '../readers/types.ts';
import { type Spend, tokenTotal } from '../scan/spend.ts';

// Numbers for people: 12,345 calls, 1.2M tokens, $3.40.

export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

export function compact(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  if (a >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${Math.round(n / 1e3)}k`;
  if (a >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

export function usd(n: number): string {
  if (n === 0) return '$0';
  if (Math.abs(n) < 0.01) return '<$0.01';
  return `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

export function tokens(t: TokenCounts): string {
  return `${compact(tokenTotal(t))} tokens`;
}

/** `$3.40`, `$3.40 + 12k tokens unpriced`, or `cost unknown`. */
export function cost(s: Spend): string {
  if (s.unpriced > 0 && s.usd === 0) return 'cost unknown';
  return s.unpriced > 0 ? `${usd(s.usd)} + ${compact(s.unpriced)} tokens unpriced` : usd(s.usd);
}

export function percent(part: number, whole: number): string {
  if (whole <= 0) return '0%';
  const p = (100 * part) / whole;
  return p > 0 && p < 0.1 ? '<0.1%' : `${p.toFixed(1)}%`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${int(n)} ${n === 1 ? one : many}`;
}

/** Interventions counted by action, as a person reads them: `62 nudges, 12 denials, 6 stops`. */
export function actionCounts(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .map(([action, n]) => plural(n, action === 'deny' ? 'denial' : action))
    .join(', ');
}
