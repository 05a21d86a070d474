import type { Decision } from '../../types.ts';
import type { Parsed } from '../types.ts';
import { context, preToolDeny } from '../claude/render.ts';

// What Codex 0.171 really does with each output (../shared/e2e/REPORT.md §2):
// - PostToolUse additionalContext reaches the model as a developer message;
// - PostToolUse continue:false replaces the tool output with stopReason but the turn GOES ON, so a stop
//   is made to hold by denying every later call: the engine keeps a stopped agent stopped, and a
//   PreToolUse deny keeps the tool from running;
// - PreToolUse rejects fields it does not support (continue, stopReason, ...) and then lets the call run,
//   so a PreToolUse answer carries the deny and nothing else;
// - Stop/SubagentStop decision:block sends the agent back with the reason as a new prompt.

export function renderCodex(parsed: Parsed, d: Decision): string {
  const e = parsed.hookEvent;
  const text = d.message ?? d.stopReason ?? 'stopped by stallguard';
  let out: Record<string, unknown> | undefined;
  if (d.action === 'allow') return '';
  if (e === 'PreToolUse') {
    if (d.action === 'deny' || d.action === 'stop') out = preToolDeny(e, text);
    else if (d.message) out = context(e, d.message);
  } else if (e === 'PostToolUse') {
    if (d.action === 'stop') out = { continue: false, stopReason: text };
    else if (d.message) out = context(e, d.message);
  } else if (e === 'Stop' || e === 'SubagentStop') {
    if (d.action === 'nudge' && d.message) out = { decision: 'block', reason: d.message };
  }
  return out ? JSON.stringify(out) : '';
}
