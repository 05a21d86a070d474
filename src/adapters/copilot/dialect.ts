import { type Dialect, tableFacts, toolTable } from '../dialect.ts';

// GitHub Copilot CLI's tools (bash, powershell, view, create, edit, glob, grep, web_fetch, task).

const TOOLS = toolTable({
  read: 'view web_fetch',
  search: 'glob grep',
  edit: 'create edit str_replace_editor',
  spawn: 'task',
  bookkeeping: 'update_todo',
});
const SHELL = new Set(['bash', 'powershell']);

export const copilotDialect: Dialect = (call, output, ok) => ({ ok, output, facts: tableFacts(TOOLS, SHELL, call) });
