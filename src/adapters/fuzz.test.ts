import { describe, it } from 'node:test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { heavyStdin, internalErrors, registeredAgents, runInProcess, stdinArbitrary } from '../../test/support/fuzz.ts';

// Every registered adapter, fed bad input through the hook's own entry, in process: whatever arrives, the
// hook answers with nothing or one JSON object, never throws, and logs no error but a complaint about
// the input (fail-open would hide any other). `npm run bench` runs the same properties
// far longer (bench/fuzz.mjs); test/fuzz-process.test.ts feeds the real process raw bytes.

const RUNS = 250;

for (const agent of registeredAgents()) {
  describe(`${agent} adapter under bad input`, () => {
    const home = mkdtempSync(join(tmpdir(), 'sg-fuzz-'));
    const env = { HOME: home, STALLGUARD_HOME: join(home, 'sg'), STALLGUARD_MODE: 'enforce' };

    it('random, mistyped, mutated and truncated payloads, with and without --agent', () => {
      fc.assert(
        fc.property(stdinArbitrary(agent), fc.boolean(), (stdin, flag) => runInProcess(agent, stdin, env, flag)),
        { numRuns: RUNS },
      );
      assert.deepEqual(internalErrors(env.STALLGUARD_HOME), []);
    });

    it('10 MB strings and nesting a million deep', { timeout: 120_000 }, () => {
      for (const stdin of heavyStdin(agent)) runInProcess(agent, stdin, env, true);
      assert.deepEqual(internalErrors(env.STALLGUARD_HOME), []);
    });
  });
}
