import { boundedMemo } from './bounded-memo.ts';
import { charClass, hasRun } from './char-runs.ts';
import { LiteralSet } from './literal-set.ts';
import { regex } from './regex.ts';
// Short forms of calls go into the ledger, and commands carry credentials often enough (curl -H
// "Authorization: Bearer ...", DATABASE_URL=postgres://user:pass@..., --token ...). Anything shaped like a
// secret is replaced before a string is stored, shown, or digested (an unkeyed digest of a short command
// would let anyone holding the ledger test guesses of the password in it). Every pattern is bounded, so a
// 10 MB string costs linear time.

const NAME = '[A-Za-z0-9_.-]{0,40}';
const SECRET_WORD =
  '(?:secret|token|passw(?:or)?d|passwd|pwd|pass|api_?key|apikey|access_?key|private_?key|credentials?|auth_?token|' +
  'client_?secret|session_?key|signing_?key|encryption_?key|signature|sas_?token|connection_?string)';
/** NAME=value where the name says secret: the rule that most texts' hints call for ("212 passed"). */
const NAMED_SECRET = new RegExp(
  `(${SECRET_WORD}${NAME})(\\\\?["']?\\s{0,3}[:=]\\s{0,3}\\\\?["']?)([^\\s"'\\\\&;,}]+)`,
  'gi',
);
/** NAMED_SECRET tried at one place only: where a secret word may start. */
const NAMED_SECRET_AT = new RegExp(NAMED_SECRET.source, 'iy');
/**
 * How far past one of its hints NAMED_SECRET's : or = can stand: the rest of the secret word (7 at most, in
 * connection_string), a name of 40, a backslash, a quote and 3 spaces.
 */
const ASSIGNED_WITHIN = 64;

/** Whether a hint of NAMED_SECRET stands in `lowered` with a : or = close enough after it for the rule to match. */
function assignedAfter(lowered: string, hint: string): boolean {
  for (let at = lowered.indexOf(hint); at !== -1; at = lowered.indexOf(hint, at + 1)) {
    const rest = lowered.slice(at + hint.length, at + hint.length + ASSIGNED_WITHIN);
    if (rest.includes(':') || rest.includes('=')) return true;
  }
  return false;
}

// Each rule comes with its hints: literals (in lower case) of which a text must hold one, in any case, for
// the rule to have a chance. One pass over the text finds the hints present, and only their rules run: a
// test log that says "212 passed" compiles and runs the rule for pass=..., not all thirty.
const RULES: [RegExp, string, string[]][] = [
  // private key blocks (PEM, OpenSSH, PGP), to their end or to the end of the text
  [
    regex(
      'g',
      /-----BEGIN [A-Z ]{0,40}PRIVATE KEY[A-Z ]{0,20}-----[\s\S]*?/,
      /(?:-----END [A-Z ]{0,40}PRIVATE KEY[A-Z ]{0,20}-----|$)/,
    ),
    '<private-key>',
    ['private key'],
  ],
  // credentials inside URLs: user:password@ and token@
  [/\b([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s:/@'"]{1,256}:[^\s@/'"]{1,256}@/gi, '$1<redacted>@', ['://']],
  [/\b([a-z][a-z0-9+.-]{0,20}:\/\/)[A-Za-z0-9_.~%-]{20,256}@/gi, '$1<redacted>@', ['://']],
  [/\bhooks\.slack\.com\/services\/[A-Za-z0-9/]{8,}/g, 'hooks.slack.com/services/<secret>', ['hooks.slack.com']],
  // well-known token shapes
  [
    /\b(?:sk|pk|rk)-(?:ant-(?:api|admin)\d{2}-|proj-|svcacct-|admin-|live-|test-)?[A-Za-z0-9_-]{16,}/g,
    '<secret>',
    ['sk-', 'pk-', 'rk-'],
  ],
  [/\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g, '<secret>', ['sk_', 'rk_', 'pk_']],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, '<secret>', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, '<secret>', ['github_pat_']],
  [
    /\bgl(?:pat|dt|rt|ptt|cbt|soat|ft|imt|oas|agent)-[A-Za-z0-9_-]{20,}/g,
    '<secret>',
    ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glsoat-', 'glft-', 'glimt-', 'gloas-', 'glagent-'],
  ],
  [/\bxox[abporse]-[A-Za-z0-9-]{10,}/g, '<secret>', ['xox']],
  [/\bxapp-[A-Za-z0-9-]{10,}/g, '<secret>', ['xapp-']],
  [
    /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g,
    '<secret>',
    ['akia', 'asia', 'agpa', 'aida', 'aroa', 'anpa', 'anva', 'aipa'],
  ],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, '<secret>', ['aiza']],
  [/\bya29\.[0-9A-Za-z_-]{20,}/g, '<secret>', ['ya29.']],
  [/\bGOCSPX-[A-Za-z0-9_-]{20,}/g, '<secret>', ['gocspx-']],
  [/\bnpm_[A-Za-z0-9]{30,}/g, '<secret>', ['npm_']],
  [/\bhf_[A-Za-z0-9]{30,}/g, '<secret>', ['hf_']],
  [/\bpypi-[A-Za-z0-9_-]{40,}/g, '<secret>', ['pypi-']],
  [/\bdckr_pat_[A-Za-z0-9_-]{20,}/g, '<secret>', ['dckr_pat_']],
  [/\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, '<secret>', ['sg.']],
  [/\bdo[por]_v1_[a-f0-9]{40,}/g, '<secret>', ['_v1_']],
  [/\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/g, '<secret>', ['shpat_', 'shpca_', 'shppa_', 'shpss_']],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{0,}/g, '<secret>', ['eyj']],
  // Authorization and similar headers, and cookies, whatever the quoting
  [
    regex(
      'gi',
      /\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|x-access-token|private-token)/,
      /(\\?["']?\s{0,3}[:=]\s{0,3}\\?["']?)(?:(?:bearer|basic|token|digest)\s+)?[^\s'"\\]+/,
    ),
    '$1$2<redacted>',
    ['authorization', 'api-key', 'x-auth-token', 'x-access-token', 'private-token'],
  ],
  [/\b((?:set-)?cookie)(["']?\s{0,3}[:=]\s{0,3})[^'"\n]+/gi, '$1$2<redacted>', ['cookie']],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, 'Bearer <redacted>', ['bearer']],
  // query parameters that carry keys: ?key=, &sig=, &code=
  [
    /([?&](?:key|sig|code|auth|access_token|id_token|refresh_token)=)[^&\s'"#]+/gi,
    '$1<redacted>',
    ['key=', 'sig=', 'code=', 'auth=', 'access_token=', 'id_token=', 'refresh_token='],
  ],
  // curl -u user:password, --user user:password
  [/(\s(?:-u|--user)(?:=|\s+))([^\s:'"]+):[^\s'"]+/g, '$1$2:<redacted>', ['-u']],
  // --password x, --token=x, and the like: a flag, not the end of a word (`specs/crud-auth -Recurse` keeps its
  // -Recurse)
  [
    regex(
      'gi',
      '(',
      /(?<!\w)--?(?:password|passwd|pass|token|secret|api-?key|auth(?:-token)?|access-token|client-secret|private-key)/,
      /(?:=|\s+)/,
      ')',
      /([^\s'"]+)/,
    ),
    '$1<redacted>',
    ['-pass', '-token', '-secret', '-api', '-auth', '-access-token', '-client-secret', '-private-key'],
  ],
  // mysql -pSECRET, sshpass -p SECRET
  [/(\bmysql\w{0,10}\b[^|;&\n]{0,200}?\s-p)([^\s'"]+)/g, '$1<redacted>', ['mysql']],
  [/(\bsshpass\s+-p\s*)([^\s'"]+)/g, '$1<redacted>', ['sshpass']],
  // NAME=value where the name says secret (env assignments, .env lines, JSON and YAML pairs, JSON inside
  // JSON with its quotes escaped); after the flags, since in `token: --password x` the secret is the
  // flag's value. The name's start is left out of the match: it stays as it is, and matching stays linear.
  [
    NAMED_SECRET,
    '$1$2<redacted>',
    [
      'secret',
      'token',
      'pass',
      'pwd',
      'api',
      'access',
      'private',
      'credential',
      'auth',
      'session',
      'signing',
      'encryption',
      'signature',
      'sas',
      'connection',
    ],
  ],
];

/**
 * The hints found in one pass of an automaton, once a process has redacted this much: it costs a few
 * milliseconds to build, which a hook process redacting a few short texts would not win back. Before,
 * each hint is looked for in the lowered text, with the same answer. (Plain loops: destructuring runs
 * through the iterator protocol, slow in a cold process's interpreter.)
 */
const AUTOMATON_AFTER = 256 * 1024;
let redacted = 0;
/** The hints and each hint's rules; the automaton also tells where NAMED_SECRET's hints start. */
let automaton: { hints: LiteralSet; rulesOf: number[][] } | undefined;
const NAMED = RULES.findIndex((rule) => rule[0] === NAMED_SECRET);

function buildAutomaton(): { hints: LiteralSet; rulesOf: number[][] } {
  const list = [...new Set(RULES.flatMap((rule) => rule[2]))];
  const rulesOf = list.map((hint) => {
    const rules: number[] = [];
    for (let i = 0; i < RULES.length; i++) if (RULES[i]![2].includes(hint)) rules.push(i);
    return rules;
  });
  const named = RULES[NAMED]![2];
  return {
    hints: new LiteralSet(
      list,
      list.flatMap((hint, i) => (named.includes(hint) ? [i] : [])),
    ),
    rulesOf,
  };
}

/**
 * The rules whose hints `text` holds, in any case, by index; found by the automaton, also where NAMED_SECRET's
 * hints start in it.
 */
function rulesFor(text: string): { rules: Set<number>; named?: number[] } {
  const out = new Set<number>();
  if (!automaton) {
    redacted += text.length;
    if (redacted > AUTOMATON_AFTER) automaton = buildAutomaton();
  }
  if (automaton) {
    const named: number[] = [];
    for (const hint of automaton.hints.found(text, named)) for (const rule of automaton.rulesOf[hint]!) out.add(rule);
    return { rules: out, named };
  }
  const lowered = text.toLowerCase();
  for (let i = 0; i < RULES.length; i++) {
    const rule = RULES[i]!;
    const named = rule[0] === NAMED_SECRET;
    if (rule[2].some((h) => (named ? assignedAfter(lowered, h) : lowered.includes(h)))) out.add(i);
  }
  return { rules: out };
}

/**
 * What NAMED_SECRET replaces in `text`, tried only where a secret word may start: where its hints start, as the
 * automaton found them in this very text. The same replacements, where the rule itself tries every character
 * of a long output (6% of a scan's CPU went there).
 */
function namedSecretsAt(text: string, starts: number[]): string {
  // Every secret word starts with one of the hints but client_?secret, whose match from `secret` on keeps what
  // stands before the value as it is, as one from `client` does, and replaces the same value.
  starts.sort((a, b) => a - b);
  // as a global replace goes: the leftmost match, then on from its end
  let out = '';
  let copied = 0;
  for (const start of starts) {
    if (start < copied) continue;
    NAMED_SECRET_AT.lastIndex = start;
    const m = NAMED_SECRET_AT.exec(text);
    if (m === null) continue;
    out += `${text.slice(copied, start)}${m[1]}${m[2]}<redacted>`;
    copied = start + m[0].length;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/**
 * Every rule, whatever the hints say, and the last passes without the checks that skip them: the
 * definition of redaction, which the hints and the checks must never change (the tests hold them to it).
 */
export function redactAllRules(text: string): string {
  let out = text;
  for (const [re, sub] of RULES) out = out.replace(re, sub);
  return envValues(out).replace(KEYLIKE, keyLike);
}

/**
 * Long runs of letters and digits mixed the way generated keys are (hex digests, which are no secret, left
 * alone). A match starts only where a run starts (the look-behind fails at once inside a word, where a
 * bare run pattern would read ahead up to 32 characters at every position) and is at most 512 long, so
 * backtracking stays bounded on a 10 MB run; one with a key character right after it is the head of a
 * longer run, which is no key and stays.
 */
const KEYLIKE = /(?<![A-Za-z0-9_+=-])[A-Za-z0-9_+=-]{32,512}/g;
const KEY_CHAR = /[A-Za-z0-9_+=-]/;
const KEY_CHARS = charClass('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_+=-');

function keyLike(m: string, at: number, text: string): string {
  if (at + m.length < text.length && KEY_CHAR.test(text[at + m.length]!)) return m;
  return looksGenerated(m) ? '<secret>' : m;
}

function looksGenerated(s: string): boolean {
  let upper = 0;
  let lower = 0;
  let digits = 0;
  for (const c of s) {
    if (c >= 'A' && c <= 'Z') upper++;
    else if (c >= 'a' && c <= 'z') lower++;
    else if (c >= '0' && c <= '9') digits++;
  }
  return upper >= 2 && lower >= 2 && digits >= 4;
}

/**
 * Texts redacted already, and what they came to: a scan of a person's history redacts the same paths,
 * commands and outputs a few times (the labelled corpus: more than half its characters).
 */
const remembered = boundedMemo<string>(1 << 20, 64 * 1024);

export function redact(text: string): string {
  const known = remembered.get(text);
  if (known !== undefined) return known;
  const out = redactText(text);
  remembered.set(text, out);
  return out;
}

/** Redaction itself, of a text not remembered. */
export function redactText(text: string): string {
  let out = text;
  const { rules, named } = rulesFor(out);
  for (let i = 0; i < RULES.length; i++) {
    if (!rules.has(i)) continue;
    // the places are of the text as it came: a rule before this one may have changed it
    if (i === NAMED && named !== undefined && out === text) out = namedSecretsAt(out, named);
    else out = out.replace(RULES[i]![0], RULES[i]![1]);
  }
  out = out.includes('.env') ? envValues(out) : out;
  // a key is a run of 32 key characters at least: most texts hold none, and the pass is skipped
  return hasRun(out, KEY_CHARS, 32) ? out.replace(KEYLIKE, keyLike) : out;
}

/**
 * A shell command redacted, its placeholders plain words: read by the shell's rules, `-p<redacted>` or
 * `key=<secret> | jq` would be redirections, and every command that held a secret an edit of a file.
 */
export function redactCommand(command: string): string {
  return redact(command).replace(/<(redacted|secret|private-key)>/g, '$1');
}

/** A .env file's every value is a secret as far as we can tell. */
function envValues(text: string): string {
  return /\.env\b/.test(text) ? text.replace(/\b([A-Z][A-Z0-9_]{1,63})=(?!<)[^\s'"]+/g, '$1=<redacted>') : text;
}
