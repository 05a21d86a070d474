/**
 * JSON with object keys sorted at every depth, so that the same arguments in another order give the
 * same text. Cycles and non-JSON values are made harmless rather than thrown on.
 */
export function stableJson(value: unknown): string {
  const seen = new WeakSet<object>();
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') {
      if (typeof v === 'bigint') return v.toString();
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      return v;
    }
    if (seen.has(v)) return '[cycle]';
    seen.add(v);
    let out: unknown;
    if (Array.isArray(v)) out = v.map((x) => walk(x) ?? null);
    else {
      const o: Record<string, unknown> = {};
      for (const key of Object.keys(v).sort()) {
        const x = walk((v as Record<string, unknown>)[key]);
        if (x !== undefined) o[key] = x;
      }
      out = o;
    }
    seen.delete(v);
    return out;
  };
  return JSON.stringify(walk(value)) ?? 'null';
}
