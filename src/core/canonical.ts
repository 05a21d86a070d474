import { charClass, hasRun } from './char-runs.ts';
import { redact } from './redact.ts';
import { stableJson } from './stable-json.ts';
import { parseMaybeJson, SHELL_TOOLS } from './call-fields.ts';

// Volatile parts are removed so that two runs of the same call compare equal, and kept narrow so that two
// different calls never do: digits in general are left alone (pagination offsets, line numbers and issue
// ids are real arguments), only values whose shape says "this changes every time" are replaced. What the agent
// passes keeps its UUIDs and long hex ids: there they name what the call acts on (a draft, a commit, a
// subagent); ids in an output are made afresh by each run.

/**
 * Field names whose values change on every call and carry no meaning for repetition, in any case; `_?` is an
 * underscore or none. A set, not an expression: each hook process would compile that anew for one key.
 */
const VOLATILE_NAMES =
  'timestamp time ts date datetime now nonce cursor next_?cursor page_?token request_?id trace_?id span_?id ' +
  'correlation_?id idempotency_?key tool_?use_?id session_?id run_?id pid duration duration_?ms elapsed ' +
  'elapsed_?ms task_?progress';

/** A name's spellings, each `_?` with its underscore and without. */
function spellings(name: string): string[] {
  const at = name.indexOf('_?');
  if (at === -1) return [name];
  return spellings(name.slice(at + 2)).flatMap((rest) => [name.slice(0, at) + rest, `${name.slice(0, at)}_${rest}`]);
}

const VOLATILE_FIELDS: ReadonlySet<string> = new Set(VOLATILE_NAMES.split(' ').flatMap(spellings));

/** Whether a field is volatile: its name, in ASCII (no other character folds into an ASCII letter), is one of them. */
export function volatileField(name: string): boolean {
  return !/[\u0080-\uffff]/.test(name) && VOLATILE_FIELDS.has(name.toLowerCase());
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC and BEL open and close the terminal codes it removes
const ANSI = /\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
const ISO_TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b/g;
const CLOCK = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const LONG_HEX = /\b[0-9a-f]{24,}\b/gi;
const REQUEST_ID = /\b(?:req|request|msg|toolu|call|run|trace)_[A-Za-z0-9]{8,}\b/g;
const TEMP_PATH = /(?:\/private)?\/(?:tmp|var\/tmp|var\/folders\/[^\s/]+\/[^\s/]+\/T)\/[^\s/'"`),;:]+/g;
/** A scratch file under Windows' temp folders, to its end: any of its names may be made afresh (`tasks\b1.out`). */
const WINDOWS_TEMP_PATH = /\b[A-Za-z]:\\(?:Users\\[^\\\s]+\\AppData\\Local\\Temp|Windows\\Temp)\\[^\s'"`),;:]+/gi;
const PID = /\b(pid|PID|PGID|process(?: group)?(?: pgid)?|Process Group PGID)([:= #]+)\d+\b/gi;
const UNIX_EPOCH_MS = /\b1[6-9]\d{11}\b/g;
const DURATION = /\b\d+(?:\.\d+)?\s?(?:ms|msec|milliseconds?|s|secs?|seconds?|\u00b5s|us|ns|m|mins?|minutes?)\b(?!\w)/g;
const HEX_ADDRESS = /\b0x[0-9a-f]{6,}\b/gi;
const LOCAL_PORT = /\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):\d{2,5}\b/g;
const LOOPBACK = ['localhost:', '127.0.0.1:', '0.0.0.0:', '[::1]:'];
// What each of the longer patterns needs to match at all: its pattern is skipped where the text lacks it. The
// shapes around a dash, a colon or a p are looked for from each of those characters (found by indexOf, which
// is fast), a third of what the expressions that say the same cost, and nothing for V8 to compile in a hook.
const isDigit = (c: number) => c >= 48 && c <= 57;
const isHex = (c: number) => isDigit(c) || ((c | 0x20) >= 97 && (c | 0x20) <= 102);
/** A digit, a dash and a digit (`\d-\d`): an ISO time's date holds them. */
const DIGIT_DASH_DIGIT = 1;
/** A dash, four hex digits and a dash (`-[0-9a-fA-F]{4}-`): every UUID holds them. */
const DASHED_HEX = 2;

/** Which of the two shapes around a dash the text holds. */
function dashShapes(t: string): number {
  let found = 0;
  for (let i = t.indexOf('-'); i !== -1 && found !== 3; i = t.indexOf('-', i + 1)) {
    if (i > 0 && isDigit(t.charCodeAt(i - 1)) && isDigit(t.charCodeAt(i + 1))) found |= DIGIT_DASH_DIGIT;
    if (t.charCodeAt(i + 5) === 45 && isHex(t.charCodeAt(i + 1)) && isHex(t.charCodeAt(i + 2))) {
      if (isHex(t.charCodeAt(i + 3)) && isHex(t.charCodeAt(i + 4))) found |= DASHED_HEX;
    }
  }
  return found;
}

/** A clock's minutes and seconds (`\d:\d\d:\d`). */
function holdsClock(t: string): boolean {
  for (let i = t.indexOf(':'); i !== -1; i = t.indexOf(':', i + 1)) {
    if (i === 0 || !isDigit(t.charCodeAt(i - 1)) || !isDigit(t.charCodeAt(i + 1))) continue;
    if (isDigit(t.charCodeAt(i + 2)) && t.charCodeAt(i + 3) === 58 && isDigit(t.charCodeAt(i + 4))) return true;
  }
  return false;
}

/** `c | 0x20` is an ASCII letter's lower case, and no other character's becomes one of the letters below. */
const lower = (t: string, i: number) => t.charCodeAt(i) | 0x20;

/** Whether PID's words start at the p at i (`p(?:g?id|rocess)`, in any case). */
function pidWordAt(t: string, i: number): boolean {
  const next = lower(t, i + 1);
  if (next === 0x69) return lower(t, i + 2) === 0x64;
  if (next === 0x67) return lower(t, i + 2) === 0x69 && lower(t, i + 3) === 0x64;
  return next === 0x72 && t.slice(i + 2, i + 7).toLowerCase() === 'ocess';
}

/**
 * PID's words in any case, as the i flag matches them: no character but the ASCII letters matches i, d, g, r,
 * o, c, e or s under it without the u flag (İ, ı and ſ do not).
 */
function holdsPidWord(t: string): boolean {
  for (let i = t.indexOf('p'); i !== -1; i = t.indexOf('p', i + 1)) if (pidWordAt(t, i)) return true;
  for (let i = t.indexOf('P'); i !== -1; i = t.indexOf('P', i + 1)) if (pidWordAt(t, i)) return true;
  return false;
}
/** A duration's last digit, then its unit's first letter, with one space between or none. */
const DURATION_HINT = /\d\s?[msun\u00b5]/;
const DIGITS = charClass('0123456789');
/** A request id's prefix, the word and its underscore. */
const HEX_DIGITS = charClass('0123456789abcdefABCDEF');
/**
 * Runs of spaces and tabs to fold (one with a tab, or longer than one), and line ends with the spaces around
 * them or a carriage return: a bare line end, which stays as it is, is no match (one a line, a call each).
 */
const WHITESPACE = /[ \t]+\r?\n[ \t]*|\r?\n[ \t]+|\r\n|[ \t]{2,}|\t/g;

/** The last three letters of each prefix REQUEST_ID knows, and the last one's char codes (q t g u l n e). */
const REQUEST_ID_ENDS = ['req', 'est', 'msg', 'olu', 'all', 'run', 'ace'];
const REQUEST_ID_LAST = new Set([113, 116, 103, 117, 108, 110, 101]);

/**
 * Whether an underscore stands right after the end of one of REQUEST_ID's prefixes, as in each of its
 * matches: code holds underscores everywhere, and the pattern tried at every position cost a fifth of
 * normalisation, where looking at each underscore's three characters before it costs a tenth of that.
 */
function mayHoldRequestId(t: string): boolean {
  for (let i = t.indexOf('_', 3); i !== -1; i = t.indexOf('_', i + 1)) {
    if (!REQUEST_ID_LAST.has(t.charCodeAt(i - 1))) continue;
    for (const end of REQUEST_ID_ENDS) if (t.startsWith(end, i - 3)) return true;
  }
  return false;
}

export interface NormalizeContext {
  cwd?: string;
  home?: string;
}

/**
 * Removes what changes between identical calls: times, ids, temp paths, pids; folds whitespace. `keepIds`: a
 * text the agent wrote, whose UUIDs and long hex ids are the objects it names.
 */
export function normalizeText(text: string, ctx: NormalizeContext = {}, keepIds = false): string {
  // The includes() checks skip whole passes over long outputs: each pattern needs that text to match at all.
  let t = text.includes('\x1b') ? text.replace(ANSI, '') : text;
  if (ctx.cwd && ctx.cwd.length > 1) t = t.replaceAll(ctx.cwd.endsWith('/') ? ctx.cwd : ctx.cwd + '/', './');
  if (ctx.cwd && ctx.cwd.length > 1) t = t.replaceAll(ctx.cwd, '.');
  if (ctx.home && ctx.home.length > 1) t = t.replaceAll(ctx.home, '~');
  const dashes = dashShapes(t);
  if (dashes & DIGIT_DASH_DIGIT) t = t.replace(ISO_TIME, '<time>');
  if (holdsClock(t)) t = t.replace(CLOCK, '<time>');
  if (dashes & DASHED_HEX && !keepIds) t = t.replace(UUID, '<uuid>');
  if (mayHoldRequestId(t)) t = t.replace(REQUEST_ID, '<id>');
  if (!keepIds && hasRun(t, HEX_DIGITS, 24)) t = t.replace(LONG_HEX, '<hex>');
  if (t.includes('/tmp/') || t.includes('/var/folders/')) t = t.replace(TEMP_PATH, '<tmp>');
  if (t.includes(':\\')) t = t.replace(WINDOWS_TEMP_PATH, '<tmp>');
  if (holdsPidWord(t)) t = t.replace(PID, '$1$2<pid>');
  if (hasRun(t, DIGITS, 13)) t = t.replace(UNIX_EPOCH_MS, '<time>');
  // Whitespace folding in one pass, only where there is something to fold (a lone space or newline stays as
  // it is): every run of spaces and tabs becomes one space, and a line end loses the spaces around it and
  // its carriage return.
  if (t.includes('\t') || t.includes('  ') || t.includes(' \n') || t.includes('\n ') || t.includes('\r\n'))
    t = t.replace(WHITESPACE, (m) => (m.includes('\n') ? '\n' : ' '));
  if (t.includes('\n\n\n')) t = t.replace(/\n{3,}/g, '\n\n');
  return t.trim();
}

/** The UUIDs and long hex ids a text holds. */
export function idsIn(text: string): string[] {
  const uuids = dashShapes(text) & DASHED_HEX ? (text.match(UUID) ?? []) : [];
  return hasRun(text, HEX_DIGITS, 24) ? [...uuids, ...(text.match(LONG_HEX) ?? [])] : uuids;
}

/** Output normalisation adds what varies between runs of the same program: durations, addresses, ports. */
export function normalizeOutputText(text: string, ctx: NormalizeContext = {}): string {
  let t = normalizeText(text, ctx);
  if (DURATION_HINT.test(t)) t = t.replace(DURATION, '<dur>');
  if (t.includes('0x') || t.includes('0X')) t = t.replace(HEX_ADDRESS, '<addr>');
  if (LOOPBACK.some((host) => t.includes(host))) t = t.replace(LOCAL_PORT, '$1:<port>');
  return t;
}

/**
 * Volatile fields dropped, and every string redacted where it stands
 * (in JSON text a quote is escaped, and a rule would miss it).
 */
function dropVolatile(tool: string, value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 8) return redact(stableJson(value));
  if (Array.isArray(value)) return value.map((v) => dropVolatile(tool, v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (volatileField(k)) continue;
    // a shell call's `description` is the model's own comment, not part of the command
    if (depth === 0 && k === 'description' && SHELL_TOOLS.has(tool)) continue;
    out[k] = dropVolatile(tool, v, depth + 1);
  }
  return out;
}

/**
 * The canonical text of a call's arguments: volatile fields dropped, keys sorted, secrets redacted (its
 * digests and sketch are stored), values normalised.
 */
export function canonicalArgs(tool: string, input: unknown, ctx: NormalizeContext = {}): string {
  return normalizeText(stableJson(dropVolatile(tool, parseMaybeJson(input), 0)), ctx, true);
}

/** The canonical text of an outcome. Structured outputs are made stable first; secrets redacted, as for arguments. */
export function canonicalOutput(output: unknown, ctx: NormalizeContext = {}): string {
  const text = typeof output === 'string' ? redact(output) : stableJson(dropVolatile('', output, 0));
  return normalizeOutputText(text, ctx);
}

/**
 * The canonical form of a piece of text a call holds (a path, a pattern,
 * an edit's old and new text): redacted and normalised, never parsed.
 */
export function canonicalText(text: string, ctx: NormalizeContext = {}): string {
  return normalizeText(redact(text), ctx, true);
}
