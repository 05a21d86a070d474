import type { Loop } from '../detect/loop.ts';

// Wording is factual on purpose: Claude treats imperative "system" text as possible prompt injection,
// and a person reading the ledger should see exactly what was repeated.

function outcome(loop: Loop): string {
  const failed = loop.calls.some((c) => c.ok === false);
  if (loop.calls.length > 1) return failed ? 'same failure each round' : 'same results each round';
  return failed ? 'same failure' : loop.calls[0]?.empty ? 'same empty result' : 'same result';
}

/** `Bash npm test` x5 (same failure); `Edit a.ts` → `Bash npm test` x5 (same failure each round) */
export function describeLoop(loop: Loop): string {
  const calls = loop.calls.map((c) => '`' + c.short + '`').join(' → ');
  return `${calls} x${loop.times} (${loop.detail ?? outcome(loop)})`;
}

export function nudgeMessage(loop: Loop): string {
  const what =
    loop.calls.length === 1
      ? `the same call ran ${loop.times} times and the result did not change`
      : `the last ${loop.calls.length * loop.times} calls repeat one cycle of ${loop.calls.length} calls ${loop.times} times, and the results did not change`;
  return (
    `stallguard: ${what}: ${describeLoop(loop)}. ` +
    'Another attempt of the same kind is unlikely to give a different result. ' +
    'Step back and check your progress: what you have learned, which assumptions may be wrong; then change approach ' +
    '(a different hypothesis, a different tool, or ask the user).'
  );
}

export function stallStopReason(loop: Loop): string {
  return `stall: ${describeLoop(loop)}, twice in this task`;
}

export function stoppedDenyMessage(reason: string): string {
  return `stallguard stopped this agent for the person (${reason}). No further tool calls run in this task.`;
}
