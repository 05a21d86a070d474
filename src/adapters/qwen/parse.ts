import { parseClaudeShaped } from '../claude/parse.ts';
import { type Parsed, str } from '../types.ts';

// Qwen Code's hook payloads (0.24.4; docs/agents.md) are Claude Code's: session_id, transcript_path, cwd,
// hook_event_name, prompt_id, agent_id / agent_type, tool_name / tool_input / tool_response,
// PostToolUseFailure for failed calls, and read the same way. Two differences matter:
// - UserPromptSubmit fires before every model request of the main agent, the tool-result continuations
//   (prompt "") and a Stop hook's continuation (prompt = the hook's reason) included, all under the
//   prompt_id of the user's query. Only the query itself carries submitted_prompt; every other firing is
//   the end of a batch of calls, where a stop can still end the turn before the model is asked again.
// - Subagents run inside the parent's session and carry agent_id (`<type>-<call id>`); agent_type only
//   on SubagentStart/SubagentStop. They fire no UserPromptSubmit: their PostToolBatch ends their batches,
//   and the main agent's PostToolBatch is left to the UserPromptSubmit after it.

/** The tool that starts a subagent (`task` in earlier releases). */
export const QWEN_SPAWN_TOOLS: ReadonlySet<string> = new Set(['agent', 'task']);

export function parseQwen(p: Record<string, unknown>): Parsed | undefined {
  const hookEvent = str(p.hook_event_name);
  if (hookEvent === 'UserPromptSubmit' && typeof p.submitted_prompt !== 'string') {
    const parsed = parseClaudeShaped({ ...p, hook_event_name: 'PostToolBatch' }, QWEN_SPAWN_TOOLS);
    return parsed && { ...parsed, hookEvent };
  }
  if (hookEvent === 'PostToolBatch' && !str(p.agent_id)) return undefined;
  return parseClaudeShaped(p, QWEN_SPAWN_TOOLS);
}
