import type { CallFacts } from '../../types.ts';
import { type Dialect, mark, tableFacts, toolTable } from '../dialect.ts';
import { outputText } from '../../core/output-text.ts';
import { anyOf, regex } from '../../core/regex.ts';

// GitHub Copilot CLI's tools and result texts (1.0.102: its tool list, error texts and the trailer it puts
// on shell results, read in its package; docs/agents.md). A shell call is a successful call whatever the
// command's exit code: the code is in a trailer that ends the result, `<shellId: 3 completed with exit code
// 1>` (the shell id counts up with every command, so the trailer is taken off before the output is read).
// The shells it starts in the background are read, written to, listed and stopped by tools of their own.

const TOOLS = toolTable({
  read: 'view web_fetch fetch_copilot_cli_documentation',
  poll: 'read_bash write_bash list_bash read_powershell write_powershell list_powershell read_agent list_agents',
  search: 'glob grep web_search',
  edit: 'create edit str_replace_editor apply_patch',
  spawn: 'task',
  exec: 'stop_bash stop_powershell',
  bookkeeping: 'update_todo ask_user',
});
const SHELL = new Set(['bash', 'powershell']);

const TRAILER = /\n*<(?:detached command with )?shellId: [^>\n]* completed with exit code (-?\d+)>\s*$/;
const REFUSED = regex(
  '',
  '^',
  anyOf(
    /The user rejected this tool call/,
    /Permission denied by (?:rules|a PermissionRequest hook)/,
    /Permission to run this tool was denied/,
    /Denied by (?:user via preToolUse hook prompt|permission request hook|preToolUse hook)/,
  ),
);
const REJECTED_EDIT = /^(?:No match found|Multiple matches found|No changes made)/;
const MALFORMED = /^Invalid inputs: |^"\w+": Expected \w+, received /;
const EMPTY = /^No matches found\b/;

export const copilotDialect: Dialect = (call, output, ok) => {
  const facts: CallFacts = tableFacts(TOOLS, SHELL, call);
  let known = ok;
  let body: unknown = output;
  const text = facts.command !== undefined && typeof output === 'string' ? output : undefined;
  const trailer = text !== undefined ? TRAILER.exec(text) : null;
  if (text !== undefined && trailer) {
    body = text.slice(0, trailer.index);
    known = ok !== false && trailer[1] === '0';
  }
  const head = outputText(body).slice(0, 400);
  mark(facts, 'refused', REFUSED.test(head));
  mark(facts, 'malformed', MALFORMED.test(head));
  mark(facts, 'rejected', facts.cls === 'edit' && known === false && REJECTED_EDIT.test(head));
  // a command that printed nothing but its trailer found nothing
  mark(facts, 'empty', facts.cls !== 'edit' && (EMPTY.test(head.trim()) || (trailer !== null && head.trim() === '')));
  return { ok: known, output: body, facts };
};
