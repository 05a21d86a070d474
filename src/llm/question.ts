import type { Entry } from '../types.ts';

// The question the optional LLM judge is asked: the agent's recent calls as short forms (secrets already
// redacted) with what kind of outcome each had, and whether it matched an earlier one. Never raw outputs
// or file contents: they can hold secrets, and a verdict on "is it stuck" does not need them.

function outcome(e: Entry, failures: Map<string, string>, seen: Map<string, number>, i: number): string {
  const first = seen.get(e.out);
  const again = first !== undefined && first !== i ? `, the same as call ${first + 1}` : '';
  if (e.ok === false) {
    if (!failures.has(e.fail ?? '')) failures.set(e.fail ?? '', String.fromCharCode(65 + failures.size));
    return `failed (failure ${failures.get(e.fail ?? '')})${again}`;
  }
  return `${e.empty ? 'ok, empty' : 'ok'}${again}`;
}

export function buildQuestion(window: readonly Entry[]): string {
  const failures = new Map<string, string>();
  const seen = new Map<string, number>();
  for (const [i, e] of window.entries()) if (!seen.has(e.out)) seen.set(e.out, i);
  const lines = window.map((e, i) => `${i + 1}. \`${e.short}\` (${e.cls}) -> ${outcome(e, failures, seen, i)}`);
  return [
    'You review the recent tool calls of a coding agent to tell whether it ' +
      'is stuck: repeating a strategy that does not work, with no progress.',
    'Healthy work is not stuck: edit-then-test cycles whose failures change, the same edit ' +
      'across many files, exploration that keeps finding new things, polling whose output changes.',
    'The calls, oldest first (outputs are not shown; identical failures share a letter):',
    ...lines,
    'Answer with one JSON object and nothing else:',
    '{"stuck": true|false, "repeating_failed_strategy": true|false, "progress": <0-10, ' +
      '10 = clear progress>, "confidence": <0-1>, "reason": "<one short sentence>"}',
  ].join('\n');
}
