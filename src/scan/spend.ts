import type { TokenCounts, UsageRecord } from '../readers/types.ts';
import { priceOf } from './prices.ts';

// Tokens and what they cost. A model missing from the price table adds its tokens to `unpriced`, so a
// total can say how much of it is of unknown cost instead of pretending it was free.

export interface Spend {
  tokens: TokenCounts;
  /** USD of the tokens whose model has a price. */
  usd: number;
  /** Tokens whose model has no price in the table. */
  unpriced: number;
}

export function noSpend(): Spend {
  return { tokens: { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 }, usd: 0, unpriced: 0 };
}

export function tokenTotal(t: TokenCounts): number {
  return t.input + t.output + t.cacheWrite + t.cacheRead;
}

export function spendOf(record: UsageRecord): Spend {
  const t = record.tokens;
  const price = priceOf(record.model);
  if (!price) return { tokens: { ...t }, usd: 0, unpriced: tokenTotal(t) };
  const oneHour = Math.min(record.cacheWrite1h ?? 0, t.cacheWrite);
  const usd =
    (t.input * price.input +
      t.output * price.output +
      (t.cacheWrite - oneHour) * price.cacheWrite +
      oneHour * (price.cacheWrite1h ?? price.cacheWrite) +
      t.cacheRead * price.cacheRead) /
    1e6;
  return { tokens: { ...t }, usd, unpriced: 0 };
}

/** Adds `b` into `a`, subtracting when `sign` is -1. */
export function addSpend(a: Spend, b: Spend, sign: 1 | -1 = 1): Spend {
  a.tokens.input += sign * b.tokens.input;
  a.tokens.output += sign * b.tokens.output;
  a.tokens.cacheWrite += sign * b.tokens.cacheWrite;
  a.tokens.cacheRead += sign * b.tokens.cacheRead;
  a.usd += sign * b.usd;
  a.unpriced += sign * b.unpriced;
  return a;
}

/** The cost for a person: USD, null when nothing of it could be priced. */
export function knownUsd(s: Spend): number | null {
  if (s.unpriced > 0 && s.usd === 0) return null;
  return Math.round(s.usd * 1e6) / 1e6;
}
