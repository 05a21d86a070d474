import type { SignalResult } from '../detect/signal.ts';

// Wording is factual on purpose: Claude treats imperative "system" text as possible prompt injection,
// and a person reading the ledger should see exactly what was repeated.

function quote(short: string): string {
  return '`' + short + '`';
}

/**
 * The loop in short form: `Bash npm test` x5 (same failure); `Edit a.ts` → `Bash npm test` x5 (same failure
 * each round); `Grep "x"`, `Grep "y"`, `Grep "z"` (4 similar calls, nothing found).
 */
export function describeLoop(lead: SignalResult): string {
  if (lead.code === 'CYCLE') return `${lead.calls.map((c) => quote(c.short)).join(' → ')} x${lead.value} (${lead.detail})`;
  const shorts = [...new Set(lead.calls.map((c) => c.short))];
  const count = lead.calls.length;
  if (shorts.length === 1) return `${quote(shorts[0]!)} x${count} (${lead.detail})`;
  const named = shorts.slice(0, 3).map(quote).join(', ') + (shorts.length > 3 ? ` and ${shorts.length - 3} more` : '');
  return `${named} (${count} similar calls, ${lead.detail})`;
}

function what(lead: SignalResult): string {
  if (lead.code === 'REPEAT') return `the same call ran ${lead.value} times and the result did not change`;
  if (lead.code === 'CYCLE') return `the last ${lead.calls.length * lead.value} calls repeat one cycle of ${lead.calls.length} calls ${lead.value} times, and the results did not change`;
  return 'the last calls repeat one approach without progress';
}

export function nudgeMessage(lead: SignalResult): string {
  return (
    `stallguard: ${what(lead)}: ${describeLoop(lead)}. ` +
    'Another attempt of the same kind is unlikely to give a different result. ' +
    'Step back and check your progress: what you have learned, which assumptions may be wrong; then change approach ' +
    '(a different hypothesis, a different tool, or ask the user).'
  );
}

export function stallStopReason(lead: SignalResult): string {
  return `stall: ${describeLoop(lead)}, twice in this task`;
}

export function stoppedDenyMessage(reason: string): string {
  return `stallguard stopped this agent for the person (${reason}). No further tool calls run in this task.`;
}

export function deniedRepeatMessage(lead: SignalResult): string {
  return `stallguard: this call repeats the loop flagged just before (${describeLoop(lead)}). It was not run. Try something different.`;
}
