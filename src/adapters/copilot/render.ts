import type { Decision } from '../../types.ts';
import type { Parsed } from '../types.ts';

// What Copilot CLI 1.0.102 does with each output of a command hook (measured with the real CLI,
// docs/agents.md):
// - postToolUse additionalContext is appended to the tool result ("Additional guidance from postToolUse
//   hooks"), since 1.0.51; postToolUseFailure additionalContext likewise beside the failed result;
// - preToolUse permissionDecision:"deny" keeps the tool from running, and the reason reaches the model;
// - permissionRequest behavior:"deny" with interrupt:true refuses the call and ENDS the agent (a subagent:
//   only that subagent). It fires after preToolUse, for the calls that go through the permission service
//   (shell and file writes), even with --allow-all-tools; reads (view, grep, glob) skip it;
// - continue:false is ignored everywhere;
// - agentStop/subagentStop decision:"block" forces another turn with the reason as the prompt.
// So a stop is told to the model where it is decided; the next call that reaches permissionRequest ends
// the agent there, and every other call of a stopped agent is denied at preToolUse.

/** The tools whose calls reach permissionRequest (seen: bash, create, edit; powershell is bash on Windows). */
export const PERMISSION_CHECKED = new Set(['bash', 'powershell', 'create', 'edit']);

export function renderCopilot(parsed: Parsed, d: Decision): string {
  const e = parsed.hookEvent;
  const ev = parsed.event;
  const text = d.message ?? d.stopReason ?? 'stopped by stallguard';
  let out: Record<string, unknown> | undefined;
  if (d.action === 'allow') return '';
  if (e === 'preToolUse') {
    const interruptNext = d.action === 'stop' && ev.kind === 'pre-tool' && PERMISSION_CHECKED.has(ev.call.name);
    if ((d.action === 'deny' || d.action === 'stop') && !interruptNext)
      out = { permissionDecision: 'deny', permissionDecisionReason: text };
  } else if (e === 'permissionRequest') {
    if (d.action === 'stop') out = { behavior: 'deny', message: text, interrupt: true };
    else if (d.action === 'deny') out = { behavior: 'deny', message: text };
  } else if (e === 'postToolUse' || e === 'postToolUseFailure') {
    out = { additionalContext: text };
  } else if (e === 'agentStop' || e === 'subagentStop') {
    if (d.action === 'nudge' && d.message) out = { decision: 'block', reason: d.message };
  }
  return out ? JSON.stringify(out) : '';
}
