// The long fuzz run (`npm run bench`): the same properties as src/adapters/fuzz.test.ts and
// test/fuzz-process.test.ts, for every registered adapter, many times over, in process and through the
// real bundled hook. Prints one table; exits 1 with fast-check's counterexample on the first failure.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import * as fuzz from '../test/support/fuzz.ts';

const IN_PROCESS = 20_000;
const PROCESSES = 200;
const rows: [string, string, number, number, string][] = [];

for (const agent of fuzz.registeredAgents()) {
  const home = mkdtempSync(join(tmpdir(), 'sg-bench-fuzz-'));
  const env = { HOME: home, STALLGUARD_HOME: join(home, 'sg'), STALLGUARD_MODE: 'enforce' };
  try {
    let start = performance.now();
    fc.assert(
      fc.property(fuzz.stdinArbitrary(agent), fc.boolean(), (stdin, flag) =>
        fuzz.runInProcess(agent, stdin, env, flag),
      ),
      { numRuns: IN_PROCESS },
    );
    for (const stdin of fuzz.heavyStdin(agent)) fuzz.runInProcess(agent, stdin, env, true);
    const hidden = fuzz.internalErrors(env.STALLGUARD_HOME);
    if (hidden.length > 0)
      throw new Error(`${agent}: errors the fail-open path hid:\n${hidden.slice(0, 10).join('\n')}`);
    rows.push([
      agent,
      'in process',
      IN_PROCESS + fuzz.heavyStdin(agent).length,
      (performance.now() - start) / 1000,
      '',
    ]);

    start = performance.now();
    const times: number[] = [];
    fc.assert(
      fc.property(fuzz.stdinArbitrary(agent), (stdin) => void times.push(fuzz.runProcess(agent, stdin, env))),
      { numRuns: PROCESSES },
    );
    for (const bytes of fuzz.invalidUtf8(agent)) times.push(fuzz.runProcess(agent, bytes, env));
    for (const stdin of fuzz.heavyStdin(agent)) times.push(fuzz.runProcess(agent, stdin, env));
    times.sort((a, b) => a - b);
    rows.push([
      agent,
      'real process',
      times.length,
      (performance.now() - start) / 1000,
      `median ${times[times.length >> 1]} ms, slowest ${times.at(-1)} ms`,
    ]);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

console.log('\nfuzz: every registered adapter, bad input of every kind (exit 0, nothing or one JSON object)\n');
console.log('adapter   where          runs   failures  seconds  per run');
for (const [agent, where, runs, seconds, note] of rows)
  console.log(
    `${agent.padEnd(9)} ${where.padEnd(13)} ${String(runs).padStart(6)}  ${'0'.padStart(8)}  ${seconds.toFixed(1).padStart(7)}  ${note}`,
  );
