import { HintLists } from './hint-lists.ts';
import { isPlainAscii } from './plain-ascii.ts';
import { anyOf, either, hinted, regex } from './regex.ts';
// How a call failed, reduced to what stays the same when the same problem recurs: the exception type and
// message, the failing test ids, the linter codes, the exit code. Two commands that fail for the same
// reason (pytest -q and python -m pytest tests/) get the same signature; a failure that changes (fewer
// failing tests, a new error) gets a new one, which is progress.

/**
 * Error lines, each expression with its hints as CAUSES below has them: literals of which a line it matches
 * holds one (in lower case for an i expression), or none where no literal says (flake8's codes). Only the
 * expressions whose hints the output holds are asked of its lines.
 */
const ERROR_LINE: [RegExp, string[]?][] = [
  // Python / JS / Java exceptions
  [
    /^(?:E\s+)?(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Failure|Warning|Exit|Interrupt)\b:?.*$/,
    ['Error', 'Exception', 'Failure', 'Warning', 'Exit', 'Interrupt'],
  ],
  [/^(?:FAILED|FAIL|ERROR|ERRORS?)\b.*$/, ['FAIL', 'ERROR']], // pytest, jest, go test summaries
  [/^error(?:\[\w+\])?:.*$/i, ['error']], // rustc, tsc, gcc
  [/^.*\b(?:error|fatal)\s+(?:TS\d+|C\d+|E\d+)?:.*$/i, ['error', 'fatal']],
  [/^-?\s*[A-Z]\d{3,4}\b.*$/], // flake8 / ruff codes (F821 undefined name 'x')
  [/^npm ERR!.*$/, ['npm ERR!']],
  [/^(?:e|w): (?:file:\/\/)?\S+:\d+(?::\d+)? .*$/, ['e: ', 'w: ']], // kotlinc
  // gradle, ant, maven
  [
    /^(?:FAILURE: Build failed.*|\* What went wrong:|Execution failed for task .*|BUILD FAILED.*|\[ERROR\] .*)$/,
    ['FAILURE: Build failed', '* What went wrong:', 'Execution failed for task ', 'BUILD FAILED', '[ERROR] '],
  ],
  // test runners' failure markers: ✗, ✕, ×
  [/^\s*(?:\u2717|\u2715|\u00d7|not ok)\s+.*$/, ['\u2717', '\u2715', '\u00d7', 'not ok']],
  [/^.*\b\d+ (?:failed|errors?|failing)\b.*$/i, [' failed', ' error', ' failing']],
  [
    regex(
      'i',
      /^.*/,
      anyOf(
        /command not found|No such file or directory|Permission denied|cannot find|not found/,
        /undefined|Cannot find module/,
      ),
      /.*$/,
    ),
    ['not found', 'no such file or directory', 'permission denied', 'cannot find', 'undefined'],
  ],
  [/^Exit code:? \d+$/, ['Exit code']],
  // a request's error status, where the agent asked for the headers (curl -i, -I)
  [/^HTTP\/[\d.]+ [45]\d\d\b.*$/, ['HTTP/']],
];

const ERROR_LINE_HINTS = new HintLists(ERROR_LINE.map(([re, hints]) => ({ hints, anyCase: re.ignoreCase })));

const LINE_NUMBER = /\b(?:line|ln|col|column)\s*\d+|:\d+(?::\d+)?\b/gi;

/** The failure lines of an output, normalised. Empty when nothing looks like an error. */
export function failureLines(text: string): string[] {
  const held = ERROR_LINE_HINTS.held(text);
  const asked = ERROR_LINE.filter((_, i) => held[i]).map(([re]) => re);
  const lines = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.length === 0 || line.length > 400) continue;
    if (asked.some((re) => re.test(line))) lines.add(line.replace(LINE_NUMBER, ':N').replace(/\s+/g, ' '));
    if (lines.size >= 40) break;
  }
  return [...lines].sort();
}

/** The last n lines of a text that hold more than spaces, trimmed, in order: read from its end. */
export function lastLines(text: string, n: number): string[] {
  const out: string[] = [];
  for (let end = text.length; ; ) {
    const start = end === 0 ? -1 : text.lastIndexOf('\n', end - 1);
    const line = text.slice(start + 1, end).trim();
    if (line) out.unshift(line);
    if (start === -1 || out.length >= n) return out;
    end = start;
  }
}

/**
 * Where a failure is, where the output says so on a line of its own rather than on its error line (as tsc, go
 * and gcc do): rustc's first `--> src/a.rs:4:9`, a stack's top frame (`at format (src/m.js:4:20)` in node,
 * `at app.Main.run(Main.java:12)` in Java), the innermost frame of a Python traceback (its last
 * `File "app/x.py", line 12`). The file alone: lines shift with every edit.
 */
const LOCATION = regex(
  'gm',
  /^\s*/,
  anyOf(
    /--> (\S+?):\d+(?::\d+)?/,
    /at (?:[^\s()]+ \(|[\w$.<>]+\()?([^\s()]+?):\d+(?::\d+)?\)?/,
    /File "([^"\n]+)", line \d+/,
  ),
);

function failureLocation(text: string): string | undefined {
  // each form is indented under its error: a frame's `at` follows a space or a tab
  if (!text.includes('--> ') && !text.includes(' at ') && !text.includes('\tat ') && !text.includes('File "'))
    return undefined;
  let top: string | undefined;
  let innermost: string | undefined;
  for (const m of text.matchAll(LOCATION)) {
    if (m[3] !== undefined) innermost = m[3];
    else top ??= m[1] ?? m[2];
  }
  return top ?? innermost;
}

/**
 * A failure signature: the error lines, or the output's last lines when none look like errors; and where the
 * failure is when that is said apart: one error fixed and the same kind of error in the next file is another
 * failure, as it is where the error line names its file.
 */
export function failureSignature(text: string): string {
  const lines = failureLines(text);
  const at = failureLocation(text);
  const where = at === undefined ? [] : [`at ${at}`];
  // an exit code alone says nothing about which failure it was: two different failures would share it
  if (lines.length > 0 && !lines.every((l) => GENERIC.test(l))) return [...lines, ...where].map(plainLine).join('\n');
  const tail = lastLines(text, 3).join('\n').replace(LINE_NUMBER, ':N');
  return [...lines, tail, ...where].map(plainLine).join('\n');
}

/**
 * A line without its case and punctuation, which vary between attempts that print the same error ("fail: x",
 * "FAIL x"). Letters and digits of every script are kept (plain-ascii.ts: an ASCII line needs no \p{L}).
 */
export function plainLine(line: string): string {
  const lower = line.toLowerCase();
  const kept = isPlainAscii(lower) ? lower.replace(/[^A-Za-z0-9\s]+/g, ' ') : lower.replace(/[^\p{L}\p{N}\s]+/gu, ' ');
  return kept.replace(/\s+/g, ' ').trim();
}

const GENERIC =
  /^(?:Exit code:? \d+|error: process didn't exit successfully.*|npm ERR! (?:code|errno|Lifecycle|A complete log).*)$/;

const USAGE_ERROR = hinted(
  either(
    'm',
    /^(?:usage: |Usage: )|unrecognized (?:option|arguments?)|invalid (?:choice|option)/,
    /missing required (?:argument|parameter)|syntax error near unexpected token/,
    /unexpected EOF while looking for matching|ParserError:/,
    /Unexpected token '?\S*'? in expression or statement/,
  ),
  [
    'usage: ',
    'Usage: ',
    'unrecognized ',
    'invalid ',
    'missing required ',
    'syntax error near unexpected token',
    'unexpected EOF while looking for matching',
    'ParserError:',
    'Unexpected token ',
  ],
);

const SYNTAX_ERROR = /^\s*(?:SyntaxError|IndentationError|TabError)\b|^SyntaxError:|Unexpected token|unexpected EOF/m;

/** Whether an interpreter could not parse the code a command handed it inline. */
export function isInlineSyntaxError(text: string): boolean {
  return SYNTAX_ERROR.test(text.slice(0, 4000));
}

/** Whether a failed command was refused for how it was written: a usage error, or a shell that could not parse it. */
export function isUsageError(text: string): boolean {
  return USAGE_ERROR.test(text.slice(0, 2000));
}

/** A verification run's own verdict that it failed: a build failure, failing tests, a compiler error. */
const FAILED_VERDICT = either(
  'm',
  regex(
    '',
    '^',
    anyOf(
      /FAILURE: Build failed|BUILD FAILED|FAILED\b|FAIL\b|npm ERR!|error(?:\[\w+\])?:/,
      /\S+\.\w+:\d+:\d+: error\b|e: file:/,
    ),
  ),
  /\b[1-9]\d* (?:failed|failing|errors?)\b|Tests?:\s+[1-9]\d* failed/,
  /Compilation (?:error|failed)/,
  // ESLint's summary, and its lines (`3:1  error  Unexpected var  no-var`)
  /^\s*\u2716 [1-9]\d* problems?\b|^\s+\d+:\d+\s+error\s/,
);

/** Whether a verification run's output says it failed, though its exit status was lost (piped into tail). */
export function saysFailed(text: string): boolean {
  return FAILED_VERDICT.test(text.length > 20_000 ? text.slice(0, 10_000) + '\n' + text.slice(-10_000) : text);
}

const ERROR_ANSWER = either(
  'i',
  /^(?:error|fail(?:ed|ure)?|fatal|exception)\b/,
  // a server's error body: its error under a key of its own, first, and not null or empty
  /^\{\s*"(?:errors?|detail)"\s*:\s*(?!null\b|false\b|\[\s*\]|\{\s*\})/,
  regex(
    '',
    /\b/,
    anyOf(
      /authentication failed|permission denied|access denied|connection refused/,
      /could not connect|unauthorized|forbidden|timed out|no such file or directory/,
      /command not found|not recognized as (?:the name of )?a cmdlet/,
    ),
    /\b/,
  ),
);

const HTTP_ERROR = /^HTTP\/[\d.]+ [45]\d\d\b/m;

/**
 * An answer that says the call failed, whatever the exit status said: a short answer that is nothing but an
 * error message, or a server's error status where the agent asked for the response's headers.
 */
export function isErrorAnswer(text: string): boolean {
  // only a short text can be nothing but an error message: a long output is never trimmed whole for it
  const t = text.length <= 1_000 ? text.trim() : '';
  return (
    (t.length > 0 && t.length <= 300 && t.split('\n').length <= 4 && ERROR_ANSWER.test(t)) ||
    HTTP_ERROR.test(text.slice(0, 20_000))
  );
}

/**
 * Why calls fail, in classes that stay the same however the message is worded (localised, with a shell's
 * banner, another file name or version in it): the same cause behind attempts spelled differently. Each
 * comes with its hints, as redact.ts's rules do: literals of which a text holds one for its expression to
 * match at all, in lower case for an expression with the i flag (the 404 class's in their case). A
 * failure's text usually holds none of them, and then no expression is compiled.
 */
const CAUSES = [
  [
    'command-not-found',
    ['command not found', 'is not recognized as', ': not found', '127'],
    either(
      'im',
      /\bcommand not found\b/,
      /is not recognized as (?:the name of a cmdlet|an internal or external command)/,
      /^(?:\S+: )?(?:line \d+: )?\S+: not found$/,
      /\bExit code:? 127\b/,
    ),
  ],
  [
    'port-in-use',
    ['eaddrinuse', 'in use', 'only one usage of each socket address', 'already allocated'],
    // Docker's words for it: `Bind for 0.0.0.0:5432 failed: port is already allocated`
    either(
      'i',
      /EADDRINUSE|address already in use|port \d+ is (?:already )?in use|Only one usage of each socket address/,
      /port is already allocated/,
    ),
  ],
  // the host is not there for this machine: its name does not resolve, or no route leads to it
  [
    'unreachable',
    ['enotfound', 'eai_again', 'resolve', 'name resolution', 'name or service', 'nodename', 'unreach', 'no route'],
    either(
      'i',
      /getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|Could not resolve (?:host|hostname)\b|Temporary failure in name resolution/,
      /Name or service not known|nodename nor servname provided|Network is unreachable|ENETUNREACH|EHOSTUNREACH/,
      /No route to host/,
    ),
  ],
  [
    'refused',
    ['econnre', 'refused', 'connect'],
    either(
      'i',
      /ECONNREFUSED|ECONNRESET|Connection refused|actively refused/,
      /Failed to connect|could not connect to|Unable to connect/,
    ),
  ],
  // git refusing to touch work not yet committed, in each command's words
  [
    'uncommitted',
    ['local changes', 'unstaged changes', 'commit your changes or stash', 'would be overwritten'],
    either(
      'i',
      /Your local changes to the following files would be overwritten|You have unstaged changes/,
      /Please commit your changes or stash them|untracked working tree files would be overwritten/,
    ),
  ],
  [
    'duplicate',
    ['duplicate', 'unique constraint failed', 'e11000', 'already exists'],
    /duplicate key|UNIQUE constraint failed|Duplicate entry|E11000|\balready exists\b/i,
  ],
  [
    'permission',
    [
      'permission denied',
      'eacces',
      'operation not permitted',
      'eperm',
      'access is denied',
      'access denied',
      'sandbox',
      'sudo: a ',
      'sudoers',
    ],
    either(
      'i',
      // not SSH's key or password refused (`Permission denied (publickey).`): credentials, as `auth` reads them
      /Permission denied(?! \((?:publickey|password|keyboard-interactive))|EACCES|Operation not permitted|EPERM\b/,
      /Access is denied|access denied/,
      /\bsandbox\b.*\bDenied\b/,
      // sudo that could not ask for the password, or may not be used: the permission was not had
      /\bsudo: a (?:terminal|password) is required|\bis not in the sudoers file\b/,
    ),
  ],
  [
    'auth',
    [
      '401',
      '403',
      'unauthori',
      'forbidden',
      'authentication failed',
      'invalid ',
      'could not read',
      'permission denied (',
    ],
    either(
      'i',
      /(?<![:.\d])\b(?:401|403)\b(?![:.]\d)|\bUnauthori[sz]ed\b|\bForbidden\b/,
      /authentication failed|invalid (?:api )?(?:key|token|credentials)/,
      // git with no credentials to give and no terminal to ask for them; SSH refusing the key or password
      /could not read (?:Username|Password) for\b|Permission denied \((?:publickey|password|keyboard-interactive)/,
    ),
  ],
  // a 404, not a line 404 of a stack frame (`cac.js:404:17`) nor a part of a version or a number
  ['http-404', ['404', 'Not Found'], /(?<![:.\d])\b404\b(?![:.]\d)|\bNot Found\b/],
  [
    'http-5xx',
    ['http/', '50'],
    /\bHTTP\/[\d.]+ 5\d\d\b|\b50[0-4] (?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)/i,
  ],
  // a timeout, not the word as an option or a setting (`timeout 8 curl`, `{ timeout: 3000 }`, `timeout=30`)
  ['timeout', ['time', 'deadline exceeded'], /\btimed? ?out\b(?!\s*[:=(\d])|ETIMEDOUT|deadline exceeded/i],
  [
    'no-such-file',
    ['no such file', 'does not exist', 'cannot find', 'enoent', 'filenotfounderror', 'could not find file'],
    either(
      'i',
      /No such file or directory|File does not exist|does not exist|cannot find (?:the )?(?:path|file)/,
      /ENOENT|FileNotFoundError|Could not find file/,
    ),
  ],
] as const;

/** Each class in words, as a message names it: `adb` is not found, `git push` fails (not authorised). */
export const CAUSE_WORDS: Record<string, string> = {
  'command-not-found': 'not found',
  'port-in-use': 'port already in use',
  unreachable: 'host unreachable',
  refused: 'connection refused',
  uncommitted: 'local changes in the way',
  duplicate: 'already exists',
  permission: 'permission denied',
  auth: 'not authorised',
  'http-404': 'not found (404)',
  'http-5xx': 'server error',
  timeout: 'timed out',
  'no-such-file': 'no such file or directory',
  bare: 'failed with no message',
};

const CAUSE_HINTS = new HintLists(CAUSES.map(([, hints, re]) => ({ hints, anyCase: re.ignoreCase })));

/** Quoted text: in '', "", ``, ‘’ and “” (the hook's code has no character past U+00FF: scripts/build.mjs). */
const QUOTED =
  /'[^'\n]{0,200}'|"[^"\n]{0,200}"|`[^`\n]{0,200}`|\u2018[^\u2019\n]{0,200}\u2019|\u201c[^\u201d\n]{0,200}\u201d/g;

/**
 * The cause of a failure: its class where one is known, else its error lines with what varies between
 * attempts at one thing (quoted names, numbers, paths) taken out; `bare` when it says nothing at all.
 */
export type CauseClass = (typeof CAUSES)[number][0] | 'bare';

/** The classes failureCause names; any other cause it returns is a template of the error lines. */
export const CAUSE_CLASSES: ReadonlySet<string> = new Set([...CAUSES.map(([c]) => c), 'bare']);

const SHELL_NAMES = new Set(['bash', 'sh', 'zsh', 'dash', 'ksh', '-bash', 'bash.exe', 'sh.exe']);
/** bash's report of an error in a script it ran: `<script>: line <n>: <message>`. */
const SCRIPT_ERROR = /^(?:[^\s:]*[/\\])?([^\s:/\\]+): line \d+: /;

/** An error bash reports of a script the command does not name, on one line of its output. */
function foreignScriptError(line: string, command: string): boolean {
  const script = SCRIPT_ERROR.exec(line.trim())?.[1];
  // the shell that runs the command reports its own errors so too (`/usr/bin/bash: line 3: x: command not found`)
  return script !== undefined && !SHELL_NAMES.has(script) && !command.includes(script);
}

/**
 * A command's output without what a login shell's start-up files printed before it: the errors, at its head, of
 * scripts the command does not name (`shellenv.sh: line 18: /bin/ps: Operation not permitted`, before the output of
 * every command a session ran). They say nothing of the command: not why it failed, nor what it printed (a read
 * past the end of a file printed nothing).
 */
export function withoutStartupErrors(text: string, command: string): string {
  if (!text.includes(': line ')) return text;
  const lines = text.split('\n');
  let head = 0;
  // the agent's note of the exit code comes first where it has one (`Exit code 1`): the head is past it
  while (head < lines.length && (EXIT_LINE.test(lines[head]!) || foreignScriptError(lines[head]!, command))) head++;
  if (head === 0) return text;
  const kept = lines.slice(0, head).filter((line) => !foreignScriptError(line, command));
  return [...kept, ...lines.slice(head)].join('\n');
}

const EXIT_LINE = /^Exit code:? -?\d+$/i;

/** A line logged below the level of an error is not why a call failed (`NOTICE:  index "x" does not exist`). */
const NOTICE = /^\s*(?:NOTICE|INFO|DEBUG)\b:?\s/m;

function withoutNotices(text: string): string {
  return NOTICE.test(text)
    ? text
        .split('\n')
        .filter((line) => !NOTICE.test(line))
        .join('\n')
    : text;
}

/** The cause of a failed call (see CauseClass), read from its output; `command` where it ran one. */
export function failureCause(output: string, command?: string): string {
  const text = withoutNotices(command === undefined ? output : withoutStartupErrors(output, command));
  const t = text.length > 8_000 ? text.slice(0, 4_000) + '\n' + text.slice(-4_000) : text;
  const words = t.replace(/^Exit code:? -?\d+$/gim, '').trim();
  if (words.length === 0) return 'bare';
  const held = CAUSE_HINTS.held(t);
  for (let i = 0; i < CAUSES.length; i++) if (held[i] && CAUSES[i]![2].test(t)) return CAUSES[i]![0];
  // an exit code alone names no cause: two failures that say nothing else alike would share it
  const lines = failureLines(t).filter((l) => !GENERIC.test(l));
  return (lines.length > 0 ? lines.slice(0, 3).join('\n') : lastLines(words, 1)[0]!)
    .replace(QUOTED, '<q>')
    .replace(/(?:[\w.-]*[/\\])+[\w.-]+/g, '<path>')
    .replace(/\d+/g, '#')
    .toLowerCase();
}
