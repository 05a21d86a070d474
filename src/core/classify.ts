import type { ToolClass } from '../types.ts';
import { callCommand, callFields, callPath, parseMaybeJson, SHELL_TOOLS } from './call-fields.ts';

// What kind of work a call is. Signals need it: a failing test re-run with no edit in between is a retry,
// a read after an edit is not a re-read, a spawn is counted. Shell commands are classified by what they
// run, since bash-only agents do all their work through one tool.

const BY_NAME: Record<string, ToolClass> = {};
const names = (cls: ToolClass, list: string) => list.split(' ').forEach((n) => (BY_NAME[n] = cls));
names('read', 'Read read_file read_many_files view NotebookRead open goto scroll_down scroll_up LS list_directory ls WebFetch web_fetch');
names('poll', 'BashOutput TaskOutput process command_status write_stdin check_status');
names('search', 'Grep Glob grep glob search_file_content search_file search_dir find_file WebSearch google_web_search rover_search_class rover_search_method rover_search_code rover_search_file rover_search_code_in_file rover_search_extension codebase_search file_search');
names('edit', 'Edit Write MultiEdit NotebookEdit write_file replace create edit apply_patch str_replace_editor insert Delete delete_file');
names('spawn', 'Agent Task invoke_agent delegate_to_agent task spawn_agent');
names('exec', 'Bash bash run_shell_command exec_command Shell shell PowerShell powershell');


const TEST_RUNNER =
  /^(?:py\.?test|pytest|tox|nox|jest|vitest|mocha|ava|tap|phpunit|rspec|ctest|tsc|eslint|ruff|flake8|pylint|mypy|pyright|black|prettier|biome|oxlint|clippy|cargo-nextest|gradle|gradlew|mvn|ant|bazel|buck|sbt|dotnet|swift|zig|gcc|g\+\+|clang|javac|rustc|go|cargo|make|ninja|cmake|npm|pnpm|yarn|bun|deno|node|python\d?(?:\.\d+)?|django-admin|sphinx-build|runtests\.py|\.?\/?(?:bin\/)?test|\.\/run\.sh)$/;
const TEST_ARGS =
  /\b(?:test|tests|check|build|lint|typecheck|type-check|spec|compile|verify|pytest|unittest|nextest|clippy|vet|runtests|repro\w*|reproduc\w*|bench)\b/i;
const READERS = /^(?:cat|head|tail|less|more|nl|bat|wc|file|stat|xxd|od|hexdump|diff|cmp|tree|ls|pwd|git)$/;
const SEARCHERS = /^(?:grep|egrep|fgrep|rg|ag|ack|find|fd|locate|which|whereis|type)$/;
const POLLERS = /^(?:sleep|wait|watch|until)$/;
const POLL_SUBCOMMAND = /^(?:gh (?:run|pr) (?:view|watch|checks)|kubectl (?:get|rollout status|wait)|docker (?:ps|logs)|systemctl status)\b/;
const WRITERS = /^(?:rm|mv|cp|touch|mkdir|rmdir|ln|chmod|chown|truncate|patch|install|dd|tee|unzip|tar)$/;

// A here-document's body is content, not commands; the rest of its first line (a redirect) is kept.
const HEREDOC = /<<-?\s*['"]?(\w+)['"]?([^\n]*)\n[\s\S]*?\n\1\b/g;

export interface CallShape {
  cls: ToolClass;
  /** The file or folder the call is about, relative where possible. */
  target?: string;
  /** What region of the target a read covered (range arguments). */
  range?: string;
  /** The content of an edit, as text to digest. */
  change?: string;
}

/** Splits a shell command into simple commands, dropping env assignments and wrappers. */
export function shellSegments(command: string): string[][] {
  const out: string[][] = [];
  const body = command.replace(HEREDOC, '<<HEREDOC$2');
  for (const seg of body.split(/\n|&&|\|\||;|\|(?!\|)/)) {
    const words = seg.trim().match(/"(?:[^"\\]|\\.)*"|'[^']*'|\S+/g) ?? [];
    let i = 0;
    while (i < words.length) {
      const w = words[i]!;
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || /^(?:sudo|env|time|nohup|exec|command|builtin|xargs|export)$/.test(w)) i++;
      else if (w === 'timeout' && i + 1 < words.length) i += 2;
      else break;
    }
    const rest = words.slice(i).map(unquote);
    if (rest.length > 0 && rest[0] !== 'cd' && rest[0] !== '#' && !rest[0]!.startsWith('#')) out.push(rest);
  }
  return out;
}

function unquote(w: string): string {
  if ((w.startsWith('"') && w.endsWith('"')) || (w.startsWith("'") && w.endsWith("'"))) return w.slice(1, -1);
  return w;
}

function base(word: string): string {
  return word.replace(/^.*\//, '') || word;
}

function writesFile(words: string[], raw: string): string | undefined {
  const verb = base(words[0] ?? '');
  if ((verb === 'sed' || verb === 'perl') && words.some((w) => /^-i/.test(w) || /^-pi/.test(w))) return lastPath(words);
  if (WRITERS.test(verb)) return lastPath(words);
  if (verb === 'git' && /^(?:checkout|restore|apply|am|stash|reset|revert|cherry-pick|mv|rm)$/.test(words[1] ?? '')) return lastPath(words);
  const redirect = raw.match(/(?:^|[^0-9&<>])>{1,2}\s*([^\s&|;<>]+)/);
  // capturing a command's output in a log file is not a change to the code
  if (redirect && !/^\/dev\/(?:null|stderr|stdout)$|\.(?:txt|log|out)$|^\/tmp\//.test(unquote(redirect[1]!))) return unquote(redirect[1]!);
  return undefined;
}

function lastPath(words: string[]): string | undefined {
  for (let i = words.length - 1; i > 0; i--) {
    const w = words[i]!;
    if (!w.startsWith('-') && !/^\d+(,\d+)?p?$/.test(w) && (w.includes('/') || w.includes('.'))) return w;
  }
  return undefined;
}

function classifyShell(command: string): CallShape {
  const segs = shellSegments(command);
  const rawSegs = command.replace(HEREDOC, '<<HEREDOC$2').split(/\n|&&|\|\||;/);
  let shape: CallShape | undefined;
  const rank: Record<ToolClass, number> = { edit: 7, test: 6, spawn: 5, poll: 4, search: 3, read: 2, exec: 1, bookkeeping: 0, other: 0 };
  const consider = (s: CallShape) => {
    if (!shape || rank[s.cls] > rank[shape.cls]) shape = s;
  };
  for (const raw of rawSegs) {
    const written = writesFile(shellSegments(raw)[0] ?? [], raw);
    if (written) consider({ cls: 'edit', target: written, change: command });
  }
  for (const words of segs) {
    const verb = base(words[0]!);
    const args = words.slice(1).join(' ');
    if (verb === 'echo' || verb === 'printf') continue;
    if (POLLERS.test(verb) || (verb === 'tail' && words.includes('-f')) || POLL_SUBCOMMAND.test(words.slice(0, 4).join(' ')))
      consider({ cls: 'poll', target: words.slice(0, 3).join(' ') });
    if (TEST_RUNNER.test(verb) && (TEST_ARGS.test(args) || /^(?:pytest|py\.test|tox|nox|jest|vitest|mocha|tsc|eslint|ruff|flake8|pylint|mypy|pyright|runtests\.py|test|\.\/run\.sh)$/.test(verb) || /(?:^|\/)(?:runtests\.py|bin\/test)$/.test(words[0]!)))
      consider({ cls: 'test', target: words.slice(0, 4).join(' ') });
    else if (SEARCHERS.test(verb) || (verb === 'git' && /^(?:grep|log)$/.test(words[1] ?? '')))
      consider({ cls: 'search', target: lastPath(words) });
    else if (READERS.test(verb) || (verb === 'sed' && words.includes('-n')) || (verb === 'awk' && !/>/.test(args)))
      consider({ cls: 'read', target: lastPath(words), range: args });
    else consider({ cls: 'exec' });
  }
  return shape ?? { cls: 'exec' };
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Classifies a call by its tool name and, for shell tools, by the command it runs. */
export function classify(tool: string, rawInput: unknown): CallShape {
  const input = parseMaybeJson(rawInput);
  const o = callFields(input);
  const command = callCommand(o);
  const path = callPath(o);
  if (SHELL_TOOLS.has(tool) && command !== undefined) return classifyShell(command);
  const cls = BY_NAME[tool];
  if (cls === 'edit') {
    const change = tool === 'apply_patch' ? (command ?? str(o.patch) ?? str(o.input)) : undefined;
    const patchTarget = change?.match(/\*\*\* (?:Update|Add|Delete) File: (\S+)/)?.[1];
    return { cls, target: path ?? patchTarget ?? firstWordAfter(command), change: change ?? JSON.stringify(input) };
  }
  if (cls === 'read') return { cls, target: path ?? firstWordAfter(command) ?? str(o.url), range: [o.offset, o.limit, o.start_line, o.end_line, command].filter((x) => x !== undefined).join(':') };
  if (cls === 'search') return { cls, target: path ?? str(o.dir_path) };
  if (cls) return { cls };
  // Bash-only agents put the command's first word in the tool name (mini-swe-agent traces); the full
  // command is still in `command`.
  if (command !== undefined) {
    const shape = classifyShell(command);
    if (tool === 'edit' || tool === 'create') return { cls: 'edit', target: firstWordAfter(command), change: command };
    return shape;
  }
  return { cls: 'other' };
}

function firstWordAfter(command: string | undefined): string | undefined {
  const w = command?.trim().split(/\s+/)[1];
  return w && !/^\d/.test(w) ? w : undefined;
}
