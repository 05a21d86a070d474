// Durations as people write them on a command line: 10m, 90s, 1h30m, 500ms. A bare number is seconds.

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds, or undefined when the text is not a positive duration. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t) > 0 ? Math.round(Number(t) * 1000) : undefined;
  if (!/^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/.test(t)) return undefined;
  let total = 0;
  for (const [, n, unit] of t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) total += Number(n) * UNIT_MS[unit!]!;
  return total > 0 ? Math.round(total) : undefined;
}

/** 600000 -> "10m", 90000 -> "1m30s", 300 -> "300ms" */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) parts.push(`${Math.floor(rest / size)}${unit}`);
    rest %= size;
  }
  return parts.join('');
}
