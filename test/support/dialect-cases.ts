import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { Dialect } from '../../src/adapters/dialect.ts';

/** A call as the agent reports it, and what its dialect must read from it (ok, output, facts), field by field. */
export type DialectCase = [
  name: string,
  tool: string,
  input: unknown,
  output: unknown,
  ok: boolean | null,
  expected: Record<string, unknown>,
];

export function dialectCases(dialect: Dialect, cases: DialectCase[]): void {
  for (const [name, tool, input, output, ok, expected] of cases) {
    it(name, () => {
      const got = dialect({ name: tool, input }, output, ok) as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(expected)) assert.deepEqual(got[k], v, k);
    });
  }
}
