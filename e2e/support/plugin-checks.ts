import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { longest, type ToolResult, toolResults } from './anthropic-view.ts';
import { ledgerDecisions, observedCalls } from './ledger-view.ts';
import type { PluginRun } from './plugin-session.ts';
import { scratchEnv } from './scratch.ts';

// What the opencode and pi scenarios check alike: what reached the model and what the ledger holds. How
// each CLI shows the end of the session is checked in the scenario itself.

const NUDGE =
  /\nstallguard: the same call ran \d times and the result did not change: `bash npm test` x\d \(same failure\)/;
const REFUSED = /^stallguard: this call repeats the loop flagged just before/;

/** The results the model saw: each call's output, the nudge appended to one of them. */
export function resultsOf(run: PluginRun): ToolResult[] {
  return toolResults(longest(run.requests)!);
}

/**
 * A looping npm test: the nudge was appended to one result the model read, by the fifth run; a repeat of
 * the loop right after it may have been refused without running; then the turn was ended at the second
 * stall, so that the model was never asked again. `ran` is how many calls the CLI reports it ran.
 */
export function checkNudgedThenStopped(run: PluginRun, ran: number): void {
  assert.equal(run.hookErrors, '');
  const results = resultsOf(run);
  const nudged = results.flatMap((r, i) => (NUDGE.test(r.text) ? [i] : []));
  assert.equal(nudged.length, 1, results.map((r) => r.text.slice(-120)).join('\n---\n'));
  assert.ok(nudged[0]! <= 4, `nudged after run ${nudged[0]! + 1}`);
  const refused = results.filter((r) => REFUSED.test(r.text));
  for (const r of refused) assert.equal(r.isError, true);

  const codes = ledgerDecisions(run.ledger).map((d) => `${d.action} ${d.code}`);
  assert.match(codes.join(', '), /^nudge STALL(, deny REPEAT_DENIED)*, stop STALL_AGAIN$/);
  assert.equal(refused.length, codes.filter((c) => c === 'deny REPEAT_DENIED').length);
  // every call that ran was observed once; the one that was stopped ran, and its result never went back
  assert.equal(observedCalls(run.ledger).get('main'), ran);
  assert.equal(results.length, ran - 1 + refused.length);
  assert.ok(ran < 15, `stopped after ${ran} of 15 runs`);
}

/** Healthy test-driven work: six calls observed, the tests pass at the end, nothing from stallguard anywhere. */
export function checkUntouched(run: PluginRun): void {
  assert.equal(run.hookErrors, '');
  const results = resultsOf(run);
  assert.equal(results.length, 6);
  const tests = [0, 3, 5].map((i) => /\d+ passed, \d+ failed/.exec(results[i]!.text)?.[0]);
  assert.deepEqual(tests, ['0 passed, 2 failed', '1 passed, 1 failed', '2 passed, 0 failed']);
  execFileSync('npm', ['test', '--silent'], {
    cwd: run.scratch.project,
    env: scratchEnv(run.scratch),
    stdio: 'ignore',
  });
  assert.equal(observedCalls(run.ledger).get('main'), 6);
  assert.ok(!run.requests.some((r) => JSON.stringify(r).includes('stallguard:')));
  assert.ok(!run.ledger.some((l) => l.t === 'd'));
}
