// How a call failed, reduced to what stays the same when the same problem recurs: the exception type and
// message, the failing test ids, the linter codes, the exit code. Two commands that fail for the same
// reason (pytest -q and python -m pytest tests/) get the same signature; a failure that changes (fewer
// failing tests, a new error) gets a new one, which is progress.

const ERROR_LINE = [
  /^(?:E\s+)?(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Failure|Warning|Exit|Interrupt)\b:?.*$/, // Python / JS / Java exceptions
  /^(?:FAILED|FAIL|ERROR|ERRORS?)\b.*$/, // pytest, jest, go test summaries
  /^error(?:\[\w+\])?:.*$/i, // rustc, tsc, gcc
  /^.*\b(?:error|fatal)\s+(?:TS\d+|C\d+|E\d+)?:.*$/i,
  /^-?\s*[A-Z]\d{3,4}\b.*$/, // flake8 / ruff codes (F821 undefined name 'x')
  /^npm ERR!.*$/,
  /^\s*(?:✗|✕|×|not ok)\s+.*$/, // test runners' failure markers
  /^.*\b\d+ (?:failed|errors?|failing)\b.*$/i,
  /^.*(?:command not found|No such file or directory|Permission denied|cannot find|not found|undefined|Cannot find module).*$/i,
  /^Exit code \d+$/,
  /^Your proposed edit has introduced new syntax error.*$/,
];

const LINE_NUMBER = /\b(?:line|ln|col|column)\s*\d+|:\d+(?::\d+)?\b/gi;

/** The failure lines of an output, normalised. Empty when nothing looks like an error. */
export function failureLines(text: string): string[] {
  const lines = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.length === 0 || line.length > 400) continue;
    if (ERROR_LINE.some((re) => re.test(line))) lines.add(line.replace(LINE_NUMBER, ':N').replace(/\s+/g, ' '));
    if (lines.size >= 40) break;
  }
  return [...lines].sort();
}

/** A failure signature: the error lines, or the output's last lines when none look like errors. */
export function failureSignature(text: string): string {
  const lines = failureLines(text);
  const tail = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .slice(-3)
    .join('\n')
    .replace(LINE_NUMBER, ':N');
  // an exit code alone says nothing about which failure it was: two different failures would share it
  if (lines.length > 0 && !lines.every((l) => GENERIC.test(l))) return lines.join('\n');
  return [...lines, tail].join('\n');
}

const GENERIC = /^(?:Exit code \d+|error: process didn't exit successfully.*|npm ERR! (?:code|errno|Lifecycle|A complete log).*)$/;

const RETURN_CODE = /<returncode>(-?\d+)<\/returncode>/;
const EXIT_CODE = /^Exit code (\d+)/;

/** Whether an outcome was a failure, when the agent did not say. null when it cannot be told. */
export function inferOk(text: string): boolean | null {
  const rc = RETURN_CODE.exec(text) ?? EXIT_CODE.exec(text);
  if (rc) return rc[1] === '0';
  if (/^Your proposed edit has introduced new syntax error/m.test(text)) return false;
  if (/^Traceback \(most recent call last\):/m.test(text)) return false;
  if (/^(?:bash: )?\S+: command not found$/m.test(text)) return false;
  return null;
}

const EMPTY_RESULT =
  /^(?:<returncode>\d+<\/returncode>\s*)?(?:<output>\s*<\/output>)?\s*$|^(?:No (?:matches|files|results) found\b.*|Found 0 (?:matches|files)\b.*|No matches found for .*|0 results?.*|Your command ran successfully and did not produce any output\.?|\(no output\)|\(Bash completed with no output\))$/is;

/** The first characters EMPTY_RESULT can match at: checking them first spares most calls compiling it. */
const EMPTY_FIRST = '<nNfF0yY(';

/** Whether an outcome carried nothing: empty output, or a search that found nothing. */
export function isEmptyResult(text: string): boolean {
  const head = text.trim().slice(0, 300);
  if (head.length === 0) return true;
  const first = head.split('\n(Open file:')[0]!.trim();
  return (first.length === 0 || EMPTY_FIRST.includes(first[0]!)) && EMPTY_RESULT.test(first);
}

const USAGE_ERROR = /^(?:usage: |Usage: )|unrecognized (?:option|arguments)|invalid (?:choice|option)|InputValidationError|missing required (?:argument|parameter)|Please always provide EXACTLY ONE action/im;

/** Whether the tool could not even parse the call: a usage error, a format error, a schema error. */
export function isMalformed(tool: string, text: string): boolean {
  return tool === '<format_error>' || USAGE_ERROR.test(text.slice(0, 2000));
}
