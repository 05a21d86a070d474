import { type Dialect, tableFacts, toolTable } from '../dialect.ts';

// Cursor's agent tools as its hooks name them (Shell, Read, Write, Grep, Delete, Task, MCP:...). Its
// results carry no envelope of their own that stallguard reads; a shell call's exit code is in the
// structured output the adapter already reads.

const TOOLS = toolTable({
  read: 'Read',
  search: 'Grep Glob codebase_search file_search',
  edit: 'Write Edit Delete delete_file',
  spawn: 'Task',
  bookkeeping: 'TodoWrite',
});
const SHELL = new Set(['Shell']);

export const cursorDialect: Dialect = (call, output, ok) => ({ ok, output, facts: tableFacts(TOOLS, SHELL, call) });
