import type { Decision, EventKind } from '../types.ts';
import type { Parsed } from './types.ts';

// What an in-process plugin does with a decision. opencode and pi let a plugin act the same three ways
// (docs/agents.md): refuse a call before it runs (the model reads the reason as the call's error), add
// text to a result the model reads, and end the agent's turn. Rendered as JSON like a hook's answer, so
// that the plugin acts on exactly what the hook path would print.

export interface PluginAnswer {
  /** Do not run the call; the model reads this as its result. */
  refuse?: string;
  /** Text for the model beside the call's result; at the end of a turn, a follow-up message. */
  tell?: string;
  /** End the agent's turn now. */
  abort?: true;
}

export function pluginAnswer(kind: EventKind, d: Decision): PluginAnswer | undefined {
  if (d.action === 'allow') return undefined;
  const text = d.message ?? d.stopReason ?? 'stopped by stallguard';
  if (kind === 'pre-tool' || kind === 'spawn')
    return d.action === 'stop' ? { refuse: text, abort: true } : d.action === 'deny' ? { refuse: text } : undefined;
  if (kind === 'post-tool')
    return d.action === 'stop' ? { tell: text, abort: true } : d.message ? { tell: d.message } : undefined;
  if (kind === 'stop' && d.action === 'nudge' && d.message) return { tell: d.message };
  return undefined;
}

export function renderPluginAnswer(parsed: Parsed, d: Decision): string {
  const answer = pluginAnswer(parsed.event.kind, d);
  return answer ? JSON.stringify(answer) : '';
}
