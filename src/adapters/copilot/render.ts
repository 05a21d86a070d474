import type { Decision } from '../../types.ts';
import type { Parsed } from '../types.ts';

// Copilot CLI's outputs (the CLI hooks reference):
// - preToolUse permissionDecision:"deny" blocks the call, and permissionDecisionReason reaches the model;
// - postToolUseFailure additionalContext reaches the model as recovery guidance;
// - agentStop/subagentStop decision:"block" forces another turn with the reason as the prompt;
// - postToolUse output is honoured for SDK hooks only, so a nudge decided after a successful call has no
//   channel in a command hook: it is recorded, and the stop that follows a second stall still holds.
// A stop is a deny of every later call (the engine keeps a stopped agent stopped); the halt that
// permissionRequest offers (interrupt:true) would never be reached, since preToolUse denies first.

export function renderCopilot(parsed: Parsed, d: Decision): string {
  const e = parsed.hookEvent;
  const text = d.message ?? d.stopReason ?? 'stopped by stallguard';
  let out: Record<string, unknown> | undefined;
  if (d.action === 'allow') return '';
  if (e === 'preToolUse') {
    if (d.action === 'deny' || d.action === 'stop') out = { permissionDecision: 'deny', permissionDecisionReason: text };
  } else if (e === 'postToolUseFailure') {
    out = { additionalContext: text };
  } else if (e === 'agentStop' || e === 'subagentStop') {
    if (d.action === 'nudge' && d.message) out = { decision: 'block', reason: d.message };
  }
  return out ? JSON.stringify(out) : '';
}
