import type { Decision } from '../../types.ts';
import type { Parsed } from '../types.ts';

// What Gemini CLI 0.61 really does with each output (../shared/e2e/REPORT.md §3):
// - AfterTool hookSpecificOutput.additionalContext is appended to the tool result the model reads;
// - continue:false with stopReason, on AfterTool, ends the agent loop at once;
// - BeforeTool decision:deny keeps the tool from running and hands the reason to the model as its error;
// - AfterAgent decision:deny rejects the answer and starts another turn with the reason as the prompt.

export function renderGemini(parsed: Parsed, d: Decision): string {
  const e = parsed.hookEvent;
  const text = d.message ?? d.stopReason ?? 'stopped by stallguard';
  let out: Record<string, unknown> | undefined;
  if (d.action === 'allow') return '';
  if (e === 'BeforeTool') {
    if (d.action === 'deny') out = { decision: 'deny', reason: text };
    else if (d.action === 'stop')
      out = { decision: 'deny', reason: text, continue: false, stopReason: d.stopReason ?? text };
  } else if (e === 'AfterTool') {
    if (d.action === 'stop') out = { continue: false, stopReason: d.stopReason ?? text };
    else if (d.message) out = { hookSpecificOutput: { hookEventName: e, additionalContext: d.message } };
  } else if (e === 'AfterAgent') {
    if (d.action === 'nudge' && d.message) out = { decision: 'deny', reason: d.message };
  }
  return out ? JSON.stringify(out) : '';
}
