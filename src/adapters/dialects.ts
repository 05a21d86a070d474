import type { AgentName } from '../types.ts';
import { commandOf, type Dialect, tableFacts, toolTable } from './dialect.ts';
import { claudeDialect } from './claude/dialect.ts';
import { codexDialect } from './codex/dialect.ts';
import { geminiDialect } from './gemini/dialect.ts';
import { cursorDialect } from './cursor/dialect.ts';
import { copilotDialect } from './copilot/dialect.ts';
import { qwenDialect } from './qwen/dialect.ts';
import { opencodeDialect } from './opencode/dialect.ts';
import { piDialect } from './pi/dialect.ts';

export const DIALECTS: Readonly<Record<AgentName, Dialect>> = {
  claude: claudeDialect,
  codex: codexDialect,
  gemini: geminiDialect,
  cursor: cursorDialect,
  copilot: copilotDialect,
  qwen: qwenDialect,
  opencode: opencodeDialect,
  pi: piDialect,
};

/** Tool names other agent loops share (OpenClaw's process poll, Windsurf's command status). */
const COMMON = toolTable({ poll: 'process command_status check_status', bookkeeping: 'todo_write update_todos' });

/**
 * For calls of an agent not known by name (a custom loop through the library, a trace from elsewhere):
 * the first known agent whose tools include this one reads it; a call with a `command` argument is a
 * shell command.
 */
export const anyDialect: Dialect = (call, output, ok) => {
  for (const dialect of Object.values(DIALECTS)) {
    const d = dialect(call, output, ok);
    if (d.facts.cls !== undefined) return d;
  }
  const common = tableFacts(COMMON, new Set(), call);
  if (common.cls !== undefined) return { ok, output, facts: common };
  const command = commandOf(call.input);
  return { ok, output, facts: command !== undefined ? { cls: 'exec', command } : {} };
};
