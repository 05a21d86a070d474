/** Deeper than this, a value is cut: an agent's payload nested 100 000 deep must not overflow the stack. */
const MAX_DEPTH = 200;

/**
 * JSON with object keys sorted at every depth, so that the same arguments in another order give the
 * same text. Cycles, non-JSON values and absurd nesting are made harmless rather than thrown on.
 */
export function stableJson(value: unknown): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown, depth = 0): unknown => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      return v;
    }
    if (seen.has(v)) return '[cycle]';
    if (depth > MAX_DEPTH) return '[deeper]';
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map((x) => walk(x, depth + 1) ?? null);
    else {
      const o: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const x = walk((v as Record<string, unknown>)[key], depth + 1);
        if (x !== undefined) o[key] = x;
      }
      out = o;
    }
    seen.delete(v);
    return out;
  };
  return JSON.stringify(walk(value)) ?? 'null';
}
