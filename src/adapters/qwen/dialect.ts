import { type Dialect, toolTable } from '../dialect.ts';
import { geminiShaped } from '../gemini/dialect.ts';
import { anyOf, either, regex } from '../../core/regex.ts';

// Qwen Code's tools (0.24.4, its ToolNames) and result texts. It grew out of Gemini CLI: a shell call's
// result is the same block of labelled lines (`Command: ...\nOutput: ...\nError: ...\nExit Code: 1\n...`),
// a failing command comes as PostToolUseFailure with that block as its error, and searches that find
// nothing say so the same way. Its own names: `edit` (Gemini's replace), `agent` (`task` before), `exec`
// (JavaScript in an isolated runtime), `monitor` (a command watched in the background), and the team's
// task list (task_create, task_update, task_list).

const TOOLS = toolTable({
  read: 'read_file list_directory web_fetch read_mcp_resource zoom_image lsp',
  poll: 'monitor',
  search: 'grep_search glob web_search tool_search',
  edit: 'edit write_file notebook_edit',
  spawn: 'agent task',
  exec: 'exec task_stop',
  bookkeeping: 'todo_write task_create task_update task_list',
});
const SHELL = new Set(['run_shell_command']);

const REFUSED = regex(
  '',
  '^',
  anyOf(
    /\[Operation Cancelled\]|User intentionally cancelled|Tool "[^"]+" is denied/,
    /This "[^"]+" invocation was denied|Tool invocation denied by host policy/,
  ),
);
const REJECTED_EDIT = either(
  '',
  regex(
    '',
    /Failed to edit/,
    anyOf(
      /, \d+ occurrences found|\. Found \d+ occurrences/,
      /\. Attempted to create a file that already exists/,
      / because the text matches multiple locations/,
    ),
  ),
  /No changes to apply\./,
);
const MALFORMED = /^(?:Error: )?params(?:\/\S+)? must |^Tool "[^"]+" not found\b/;
const EMPTY = /^(?:No matches found|No files found|Found 0 matches)\b/;

export const qwenDialect: Dialect = geminiShaped(TOOLS, SHELL, {
  refused: REFUSED,
  rejectedEdit: REJECTED_EDIT,
  malformed: MALFORMED,
  empty: EMPTY,
});
