import type { CallFacts } from '../../types.ts';
import { type Dialect, mark, tableFacts, toolTable } from '../dialect.ts';
import { outputText } from '../../core/output-text.ts';

// pi's tools (0.73.1: dist/core/tools) and their texts. A shell command that exits non-zero is a failed
// call whose text ends with `Command exited with code N`; tools that find nothing say so in a line.

const TOOLS = toolTable({
  read: 'read ls',
  search: 'grep find',
  edit: 'edit write',
});
const SHELL = new Set(['bash']);

/** What the edit tool says when it cannot apply a replacement (dist/core/tools/edit-diff.js). */
const REJECTED_EDIT =
  /^(?:Could not find (?:the exact text|edits\[\d+\]) in |Found \d+ occurrences of |No changes made to )/;
/** pi-agent-core's answers to a call it could not run as made. */
const MALFORMED = /^(?:Tool \S+ not found$|Validation failed for tool |Edit tool input is invalid)/;
const EMPTY = /^(?:No matches found|No files found matching pattern|\(empty directory\)|\(no output\))\s*$/;

export const piDialect: Dialect = (call, output, ok) => {
  const facts: CallFacts = tableFacts(TOOLS, SHELL, call);
  const head = outputText(output).slice(0, 400);
  mark(facts, 'malformed', MALFORMED.test(head));
  mark(facts, 'rejected', facts.cls === 'edit' && ok === false && REJECTED_EDIT.test(head));
  mark(facts, 'empty', facts.cls !== 'edit' && EMPTY.test(head.trim()));
  return { ok, output, facts };
};
