import type { CallFacts } from '../../types.ts';
import { type Dialect, mark, tableFacts, toolTable } from '../dialect.ts';
import { outputText } from '../../core/output-text.ts';
import { anyOf, either, hinted, regex } from '../../core/regex.ts';
import { saysPageLacks } from '../../core/page-lacks.ts';

// Claude Code's tools and the texts its harness puts around their results (measured on 2.1.x transcripts
// and hook payloads). Tools reached through an ACP bridge (`mcp__acp__Bash`) are the same tools.

const TOOLS = toolTable({
  read: 'Read NotebookRead LS WebFetch',
  poll: 'BashOutput TaskOutput',
  search: 'Grep Glob WebSearch ToolSearch',
  edit: 'Edit Write MultiEdit NotebookEdit',
  spawn: 'Agent Task',
  exec: 'KillShell TaskStop',
  bookkeeping: 'TodoWrite TaskCreate TaskUpdate TaskList TaskGet AskUserQuestion EnterPlanMode ExitPlanMode',
});
const SHELL = new Set(['Bash', 'PowerShell']);

// Each expression about a result's head is asked only where the head holds one of its hints (literals every
// match holds): most results hold none, and V8 would compile each in every hook process that reads a result.
const EXIT_CODE = /^Exit code (\d+)/;
const EXIT_CODE_HINT = 'Exit code ';
/** The harness's own report of a call that failed or could not run. */
const TOOL_ERROR = hinted(/^\s*<tool_use_error>/, ['<tool_use_error>']);
/** A parallel call the harness cancelled because another call of the batch failed: it never ran. */
const SKIPPED = hinted(/^\s*<tool_use_error>(?:Sibling tool call errored|Cancelled: parallel tool call)/, [
  '<tool_use_error>',
]);
const REFUSED = hinted(
  regex(
    '',
    '^',
    anyOf(
      /Permission to use \S+ has been denied|Permission for this tool use was denied/,
      /The user doesn't want to (?:proceed with|take) this|\[Request interrupted by user/,
    ),
  ),
  ['Permission ', "The user doesn't want to ", '[Request interrupted by user'],
);
const REJECTED_EDIT = either(
  '',
  /String to replace not found in file/,
  /No changes to make: old_string and new_string are exactly the same/,
  /Found \d+ matches of the string to replace/,
);
const MALFORMED = hinted(/InputValidationError|<tool_use_error>Error: No such tool available/, [
  'InputValidationError',
  '<tool_use_error>',
]);
/**
 * Read's answer, in place of the file, to a read of a file it saw no change to since the agent's last read
 * (worded several ways across 2.1.x: "Unchanged since last read", "File unchanged since last read. ...",
 * "Wasted call — file unchanged since your last Read. ...").
 */
const UNCHANGED = hinted(/^(?:Wasted call\W+)?(?:File )?unchanged since (?:your )?last read\b/i, ['unchanged since']);
// Grep with a head_limit adds its paging to an empty answer too: `[Showing results with pagination = limit: 30, ...]`
const EMPTY = hinted(
  new RegExp(
    String.raw`^(?:No matches found|No files found|Found 0 (?:matches|files)|` +
      String.raw`\(Bash completed with no output\)|\(no output\))` +
      String.raw`(?:\s*\[Showing results with pagination = [^\]\n]*\])?\s*$`,
  ),
  ['No matches found', 'No files found', 'Found 0 ', '(Bash completed with no output)', '(no output)'],
);

/**
 * WebSearch's answer that found nothing: its header and reminder around a line or two and no link (`Links: []`,
 * `No links found.`, an API error, or only the model's "I'll perform that web search for you."), where results
 * name their pages' URLs. A long answer without links (a search error the model then wrote results for) told
 * something.
 */
function foundNoPage(text: string): boolean {
  if (!text.startsWith('Web search results for query:')) return false;
  const end = text.lastIndexOf('\nREMINDER: ');
  const body = text.slice(text.indexOf('\n') + 1, end === -1 ? undefined : end).trim();
  return body.length <= 300 && !body.includes('http://') && !body.includes('https://');
}

/** Read's answer past a file's end, or of an empty file (offset 1): the file exists, and none of it was shown. */
const PAST_END = hinted(
  new RegExp(
    String.raw`^<system-reminder>Warning: the file exists but is shorter than the provided offset \(\d+\)\.` +
      String.raw`[^<]*<\/system-reminder>$`,
  ),
  ['shorter than the provided offset'],
);

export const claudeDialect: Dialect = (call, output, ok) => {
  const name = call.name.startsWith('mcp__acp__') ? call.name.slice('mcp__acp__'.length) : call.name;
  const facts: CallFacts = tableFacts(TOOLS, SHELL, { ...call, name });
  const text = outputText(output);
  const head = text.slice(0, 400);
  const code = head.startsWith(EXIT_CODE_HINT) ? EXIT_CODE.exec(head) : null;
  // where the agent gave no success or failure (a result read from the list at a batch's end), the text tells
  const known = ok ?? (code ? code[1] === '0' : TOOL_ERROR.test(head) || REFUSED.test(head) ? false : null);
  mark(facts, 'skipped', SKIPPED.test(head));
  mark(facts, 'refused', REFUSED.test(head));
  mark(facts, 'malformed', MALFORMED.test(head));
  mark(facts, 'rejected', facts.cls === 'edit' && known === false && REJECTED_EDIT.test(head));
  // a command that failed and printed nothing comes back as its exit code alone: it carried nothing (as Codex's
  // envelope around an empty output does)
  mark(
    facts,
    'empty',
    EMPTY.test(head.trim()) ||
      (code !== null && head.trim() === code[0]) ||
      (name === 'WebSearch' && foundNoPage(text)) ||
      (name === 'WebFetch' && known !== false && saysPageLacks(head)) ||
      (facts.cls === 'read' && PAST_END.test(head.trim())),
  );
  mark(facts, 'unchanged', facts.cls === 'read' && UNCHANGED.test(head.trim()));
  return { ok: known, output, facts };
};
