import type { CallFacts } from '../../types.ts';
import { type Dialect, mark, tableFacts, type ToolTable, toolTable } from '../dialect.ts';
import { outputText } from '../../core/output-text.ts';
import { either } from '../../core/regex.ts';
import { saysPageLacks } from '../../core/page-lacks.ts';

// Gemini CLI's tools and result texts. A shell call's result is a block of labelled lines
// (`Command: ...\nDirectory: ...\nOutput: ...\nError: ...\nExit Code: 1\n...\nProcess Group PGID: 123`; some
// versions split `Output:` into `Stdout:` and `Stderr:`) and its status is "success" even when the command exited
// non-zero; tool errors start with `Error:`.

const TOOLS = toolTable({
  read: 'read_file read_many_files list_directory web_fetch',
  poll: 'read_background_output list_background_processes',
  search: 'grep_search search_file_content glob google_web_search',
  edit: 'replace write_file',
  spawn: 'invoke_agent delegate_to_agent',
  bookkeeping: 'write_todos update_topic ask_user enter_plan_mode exit_plan_mode',
});
const SHELL = new Set(['run_shell_command']);

const EXIT_CODE = /^Exit Code: (-?\d+)$/m;
const FIELD_END = String.raw`(?=^(?:Stderr|Error|Exit Code|Signal|Background PIDs|Process Group PGID): |$(?![\s\S]))`;
const OUTPUT = new RegExp(String.raw`^(?:Output|Stdout): ([\s\S]*?)` + FIELD_END, 'm');
const STDERR = new RegExp(String.raw`^Stderr: ([\s\S]*?)` + FIELD_END, 'm');
// A cancel or a denial comes with `Error: ` before it or without, by version and by where the call was stopped.
const REFUSED = /^(?:Error: )?(?:\[Operation Cancelled\]|Tool execution denied by policy)/;
const REJECTED_EDIT = either(
  '',
  /Failed to edit, (?:\d+ occurrences found|Expected \d+ occurrences?)/,
  /could not find the string to replace|determined that no changes were necessary/,
);
const MALFORMED = /^Error: params(?:\/\S+)? must /;
const EMPTY = /^(?:No matches found|No files found|Found 0 matches)\b/;

/** The texts an agent of Gemini CLI's family puts on its results. */
export interface ResultTexts {
  refused: RegExp;
  rejectedEdit: RegExp;
  malformed: RegExp;
  empty: RegExp;
}

/**
 * The dialect of Gemini CLI, or of an agent that grew out of it
 * (Qwen Code): its tools, the same labelled shell block, its texts.
 */
export function geminiShaped(tools: ToolTable, shell: ReadonlySet<string>, texts: ResultTexts): Dialect {
  return (call, output, ok) => {
    const facts: CallFacts = tableFacts(tools, shell, call);
    const text = outputText(output);
    let known = ok;
    let body: unknown = output;
    if (facts.command !== undefined && /^(?:Command|Output): /m.test(text)) {
      const code = EXIT_CODE.exec(text)?.[1];
      if (code !== undefined && code !== '0') known = false;
      else if (known === null) known = true;
      const field = (re: RegExp) => {
        const v = re.exec(text)?.[1]?.trim() ?? '';
        return v === '(empty)' ? '' : v;
      };
      body = [field(OUTPUT), field(STDERR)].filter(Boolean).join('\n');
      const error = /^Error: (.*)$/m.exec(text)?.[1];
      if (error && error !== '(none)') body = `${String(body)}\n${error}`.trim();
    }
    const head = text.slice(0, 400);
    mark(facts, 'refused', texts.refused.test(head));
    mark(facts, 'malformed', texts.malformed.test(head));
    mark(facts, 'rejected', facts.cls === 'edit' && known === false && texts.rejectedEdit.test(head));
    const nothing = outputText(body).trim().length === 0 || texts.empty.test(head);
    // its web_fetch answers as a model that read the page for the prompt
    const lacks = call.name === 'web_fetch' && known !== false && saysPageLacks(head);
    mark(facts, 'empty', facts.cls !== 'edit' && (nothing || lacks));
    return { ok: known, output: body, facts };
  };
}

export const geminiDialect: Dialect = geminiShaped(TOOLS, SHELL, {
  refused: REFUSED,
  rejectedEdit: REJECTED_EDIT,
  malformed: MALFORMED,
  empty: EMPTY,
});
