import type { CallFacts } from '../../types.ts';
import { type Dialect, mark, tableFacts, toolTable } from '../dialect.ts';
import { outputText } from '../../core/output-text.ts';
import { anyOf, regex } from '../../core/regex.ts';

// opencode's tools (1.18.33: the tool registry in its binary) and their texts. Its shell tool returns on a
// non-zero exit (the plugin reads the exit code from its metadata); a call that throws reaches the plugin
// as the tool part's error text. A call the model made with arguments the tool cannot take is routed to
// its `invalid` tool, which answers with what was wrong.

const TOOLS = toolTable({
  read: 'read list webfetch lsp',
  search: 'glob grep websearch codesearch',
  edit: 'edit write apply_patch',
  spawn: 'task',
  bookkeeping: 'todowrite todoread',
});
const SHELL = new Set(['bash']);

const REJECTED_EDIT = regex(
  '',
  /^(?:Error: )?/,
  anyOf(
    /Could not find oldString|Found multiple (?:exact )?matches for oldString/,
    /No changes to apply: oldString and newString are identical/,
  ),
);
const REFUSED = regex(
  '',
  /^(?:Error: )?The user /,
  anyOf(
    /rejected permission to use this specific tool call/,
    /has specified a rule which prevents you from using this specific tool call/,
  ),
);
const MALFORMED = /^The arguments provided to the tool are invalid: /;
const EMPTY = /^(?:No files found|No matches found)\b/;

export const opencodeDialect: Dialect = (call, output, ok) => {
  const facts: CallFacts = tableFacts(TOOLS, SHELL, call);
  const head = outputText(output).slice(0, 400);
  mark(facts, 'refused', REFUSED.test(head));
  mark(facts, 'malformed', call.name === 'invalid' || MALFORMED.test(head));
  // an edit it could not place changed nothing
  mark(facts, 'rejected', facts.cls === 'edit' && ok === false && REJECTED_EDIT.test(head));
  mark(facts, 'empty', facts.cls === 'search' && EMPTY.test(head.trim()));
  return { ok, output, facts };
};
