import type { Decision } from '../../types.ts';
import type { Parsed } from '../types.ts';

// What Claude Code 2.1.197 really does with each output (../shared/e2e/REPORT.md):
// - additionalContext on Pre/PostToolUse and PostToolUseFailure reaches the model as a system reminder
//   beside the tool result, and on PostToolBatch as a system message of its own right after the batch's
//   results (e2e/claude-rereading.e2e.test.ts);
// - continue:false stops on PreToolUse, PostToolUse and PostToolBatch, but is IGNORED on
//   PostToolUseFailure, where most failing loops land; the engine keeps a stopped agent stopped, so the
//   following PostToolBatch or PreToolUse delivers the stop;
// - a PreToolUse deny keeps the tool from running, and its reason reaches the model;
// - Stop/SubagentStop decision:block sends the agent back with the reason.

const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch']);

/** Text for the model beside a result, in the hookSpecificOutput form Claude Code and its imitators read. */
export function context(hookEvent: string, text: string): Record<string, unknown> {
  return { hookSpecificOutput: { hookEventName: hookEvent, additionalContext: text } };
}

/** A PreToolUse refusal: the call does not run, and the reason is what the model reads. */
export function preToolDeny(hookEvent: string, reason: string): Record<string, unknown> {
  return {
    hookSpecificOutput: { hookEventName: hookEvent, permissionDecision: 'deny', permissionDecisionReason: reason },
  };
}

export function renderClaude(parsed: Parsed, d: Decision): string {
  const e = parsed.hookEvent;
  const isStopEvent = e === 'Stop' || e === 'SubagentStop';
  let out: Record<string, unknown> | undefined;
  switch (d.action) {
    case 'allow':
      return '';
    case 'nudge':
      if (isStopEvent) out = { decision: 'block', reason: d.message ?? '' };
      else if (TOOL_EVENTS.has(e) && d.message) out = context(e, d.message);
      break;
    case 'deny':
      if (e === 'PreToolUse') out = preToolDeny(e, d.message ?? 'denied by stallguard');
      else if (TOOL_EVENTS.has(e) && d.message) out = context(e, d.message);
      break;
    case 'stop': {
      if (isStopEvent) return ''; // it is stopping already
      const stop = { continue: false, stopReason: d.stopReason ?? 'stopped by stallguard' };
      if (e === 'PreToolUse') out = { ...stop, ...preToolDeny(e, d.message ?? stop.stopReason) };
      else if (TOOL_EVENTS.has(e)) out = d.repeat || !d.message ? stop : { ...stop, ...context(e, d.message) };
      else out = stop;
      break;
    }
  }
  return out ? JSON.stringify(out) : '';
}
