import type { CallFacts } from '../../types.ts';
import { commandOf, type Dialect, mark, toolTable } from '../../adapters/dialect.ts';
import { outputText } from '../../core/output-text.ts';

// SWE-agent's command interface, and CodeR's multi-role fork of it: file viewing and search commands of
// its own (open, goto, scroll_down, search_file, rover_search_*), a line-range `edit` that is refused with
// "Your proposed edit has introduced new syntax error(s)", role hand-offs (plan, succeed, fail), and a
// status footer after every result (`(Open file: ...)\n(Current directory: ...)\nbash-$`).

const TOOLS = toolTable({
  read: 'open goto scroll_down scroll_up',
  search:
    'search_file search_dir find_file rover_search_class rover_search_method ' +
    'rover_search_code rover_search_file rover_search_code_in_file ' +
    'rover_search_extension stackoverflow_search similar_issue_search',
  edit: 'edit create insert',
  bookkeeping: 'plan succeed fail',
  other: 'submit exit_cost',
});

const FOOTER = /\n*\(Open file: [^\n]*\)\n\(Current directory: [^\n]*\)\n?(?:bash-\$)?\s*$/;
const REJECTED_EDIT = /^Your proposed edit has introduced new syntax error/m;
const EMPTY =
  /^(?:Your command ran successfully and did not produce any output\.?|No matches found\b.*|Found 0 matches\b.*)$/s;
const TRACEBACK = /^Traceback \(most recent call last\):/m;
const NOT_FOUND = /^(?:bash: )?\S+: command not found$/m;

export const sweAgentDialect: Dialect = (call, output, ok) => {
  const cls = TOOLS.get(call.name);
  const command = commandOf(call.input);
  const facts: CallFacts = cls ? { cls } : command !== undefined ? { cls: 'exec', command } : { cls: 'other' };
  if (cls === 'bookkeeping') facts.bookkeeping = true;
  // the harness's own commands name their file as the first argument: `open src/x.py 120`, `edit 10:12`
  if (cls && command !== undefined) {
    const arg = command.trim().split(/\s+/)[1];
    if (arg && !/^\d/.test(arg) && (cls === 'read' || cls === 'edit')) facts.target = arg;
  }
  const text = outputText(output);
  const body = text.replace(FOOTER, '');
  const rejected = cls === 'edit' && REJECTED_EDIT.test(body);
  const known = ok ?? (rejected || TRACEBACK.test(body) || NOT_FOUND.test(body) ? false : null);
  mark(facts, 'rejected', rejected);
  mark(facts, 'empty', body.trim().length === 0 || EMPTY.test(body.trim()));
  return { ok: known, output: body, facts };
};
