import type { Decision } from '../../types.ts';
import type { Parsed } from '../types.ts';

// Cursor's outputs, in the newer documented dialect [CU-B] (../shared/reference/agent-hooks.md §4):
// - preToolUse and subagentStart: permission:"deny" keeps the call (or the subagent) from running;
//   agent_message reaches the model, user_message the person;
// - postToolUse and postToolUseFailure: additional_context is placed after the tool result;
// - stop and subagentStop: followup_message is sent as the next user message (counted against loop_limit).
// Cursor has no documented way to halt the agent from a hook, so a stop is a deny of every later call:
// the engine keeps a stopped agent stopped.

const BEFORE = new Set(['preToolUse', 'subagentStart']);
const AFTER = new Set(['postToolUse', 'postToolUseFailure']);

export function renderCursor(parsed: Parsed, d: Decision): string {
  const e = parsed.hookEvent;
  const text = d.message ?? d.stopReason ?? 'stopped by stallguard';
  let out: Record<string, unknown> | undefined;
  if (d.action === 'allow') return '';
  if (BEFORE.has(e)) {
    if (d.action === 'deny' || d.action === 'stop')
      out = {
        permission: 'deny',
        user_message: d.action === 'stop' ? (d.stopReason ?? text) : text,
        agent_message: text,
      };
  } else if (AFTER.has(e)) {
    out = { additional_context: text };
  } else if (e === 'stop' || e === 'subagentStop') {
    if (d.action === 'nudge' && d.message) out = { followup_message: d.message };
  }
  return out ? JSON.stringify(out) : '';
}
