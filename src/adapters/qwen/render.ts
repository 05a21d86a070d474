import type { Decision } from '../../types.ts';
import type { Parsed } from '../types.ts';
import { context, preToolDeny } from '../claude/render.ts';

// What Qwen Code 0.24.4 does with each output (measured with the real CLI, docs/agents.md):
// - hookSpecificOutput.additionalContext on PostToolUse and PostToolUseFailure is appended to the tool
//   result the model reads;
// - a PreToolUse deny keeps the tool from running, and its reason is the result the model reads;
// - continue:false on PreToolUse, PostToolUse or PostToolBatch only turns that one call's result into the
//   stop reason (PostToolUseFailure ignores it), and the turn goes on;
// - decision:block on UserPromptSubmit ends the turn without asking the model again: that is the stop,
//   delivered at the continuation after the stopping call; inside a subagent, which fires no
//   UserPromptSubmit, a stop is a deny of every later call (the engine keeps a stopped agent stopped), and
//   its PostToolBatch (a batch end) gets no answer;
// - Stop/SubagentStop decision:block sends the agent back with the reason as a new user message.

const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure']);

export function renderQwen(parsed: Parsed, d: Decision): string {
  const e = parsed.hookEvent;
  const text = d.message ?? d.stopReason ?? 'stopped by stallguard';
  let out: Record<string, unknown> | undefined;
  if (d.action === 'allow') return '';
  if (e === 'PreToolUse') {
    if (d.action === 'deny' || d.action === 'stop') out = preToolDeny(e, text);
    else if (d.message) out = context(e, d.message);
  } else if (TOOL_EVENTS.has(e)) {
    if (d.message) out = context(e, d.message);
  } else if (e === 'UserPromptSubmit') {
    if (d.action === 'stop') out = { decision: 'block', reason: d.stopReason ?? text };
  } else if (e === 'Stop' || e === 'SubagentStop') {
    if (d.action === 'nudge' && d.message) out = { decision: 'block', reason: d.message };
  }
  return out ? JSON.stringify(out) : '';
}
