// Short forms of calls go into the ledger, and commands carry credentials often enough (curl -H
// "Authorization: Bearer ...", DATABASE_URL=postgres://user:pass@..., --token ...). Anything shaped like a
// secret is replaced before a string is stored, shown, or digested (an unkeyed digest of a short command
// would let anyone holding the ledger test guesses of the password in it). Every pattern is bounded, so a
// 10 MB string costs linear time.

const NAME = '[A-Za-z0-9_.-]{0,40}';
const SECRET_WORD =
  '(?:secret|token|passw(?:or)?d|passwd|pwd|pass|api_?key|apikey|access_?key|private_?key|credentials?|auth_?token|client_?secret|session_?key|signing_?key|encryption_?key|signature|sas_?token|connection_?string)';

// The third element, where there is one, is a cheap test a text must pass for the rule to have a chance.
const RULES: [RegExp, string, ((text: string) => boolean)?][] = [
  // private key blocks (PEM, OpenSSH, PGP), to their end or to the end of the text
  [/-----BEGIN [A-Z ]{0,40}PRIVATE KEY[A-Z ]{0,20}-----[\s\S]*?(?:-----END [A-Z ]{0,40}PRIVATE KEY[A-Z ]{0,20}-----|$)/g, '<private-key>'],
  // credentials inside URLs: user:password@ and token@
  [/\b([a-z][a-z0-9+.-]{0,20}:\/\/)[^\s:/@'"]{1,256}:[^\s@/'"]{1,256}@/gi, '$1<redacted>@', (t) => t.includes('@')],
  [/\b([a-z][a-z0-9+.-]{0,20}:\/\/)[A-Za-z0-9_.~%-]{20,256}@/gi, '$1<redacted>@', (t) => t.includes('@')],
  [/\bhooks\.slack\.com\/services\/[A-Za-z0-9/]{8,}/g, 'hooks.slack.com/services/<secret>'],
  // well-known token shapes
  [/\b(?:sk|pk|rk)-(?:ant-(?:api|admin)\d{2}-|proj-|svcacct-|admin-|live-|test-)?[A-Za-z0-9_-]{16,}/g, '<secret>'],
  [/\b(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}/g, '<secret>'],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, '<secret>'],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, '<secret>'],
  [/\bgl(?:pat|dt|rt|ptt|cbt|soat|ft|imt|oas|agent)-[A-Za-z0-9_-]{20,}/g, '<secret>'],
  [/\bxox[abporse]-[A-Za-z0-9-]{10,}/g, '<secret>'],
  [/\bxapp-[A-Za-z0-9-]{10,}/g, '<secret>'],
  [/\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b/g, '<secret>'],
  [/\bAIza[0-9A-Za-z_-]{30,}/g, '<secret>'],
  [/\bya29\.[0-9A-Za-z_-]{20,}/g, '<secret>'],
  [/\bGOCSPX-[A-Za-z0-9_-]{20,}/g, '<secret>'],
  [/\bnpm_[A-Za-z0-9]{30,}/g, '<secret>'],
  [/\bhf_[A-Za-z0-9]{30,}/g, '<secret>'],
  [/\bpypi-[A-Za-z0-9_-]{40,}/g, '<secret>'],
  [/\bdckr_pat_[A-Za-z0-9_-]{20,}/g, '<secret>'],
  [/\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g, '<secret>'],
  [/\bdo[por]_v1_[a-f0-9]{40,}/g, '<secret>'],
  [/\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}/g, '<secret>'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{0,}/g, '<secret>'],
  // Authorization and similar headers, and cookies, whatever the quoting
  [/\b((?:proxy-)?authorization|x-api-key|api-key|x-auth-token|x-access-token|private-token)(\\?["']?\s{0,3}[:=]\s{0,3}\\?["']?)(?:(?:bearer|basic|token|digest)\s+)?[^\s'"\\]+/gi, '$1$2<redacted>'],
  [/\b((?:set-)?cookie)(["']?\s{0,3}[:=]\s{0,3})[^'"\n]+/gi, '$1$2<redacted>'],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, 'Bearer <redacted>'],
  // query parameters that carry keys: ?key=, &sig=, &code=
  [/([?&](?:key|sig|code|auth|access_token|id_token|refresh_token)=)[^&\s'"#]+/gi, '$1<redacted>'],
  // curl -u user:password, --user user:password
  [/(\s(?:-u|--user)(?:=|\s+))([^\s:'"]+):[^\s'"]+/g, '$1$2:<redacted>'],
  // --password x, --token=x, and the like
  [/(--?(?:password|passwd|pass|token|secret|api-?key|auth(?:-token)?|access-token|client-secret|private-key)(?:=|\s+))([^\s'"]+)/gi, '$1<redacted>'],
  // mysql -pSECRET, sshpass -p SECRET
  [/(\bmysql\w{0,10}\b[^|;&\n]{0,200}?\s-p)([^\s'"]+)/g, '$1<redacted>'],
  [/(\bsshpass\s+-p\s*)([^\s'"]+)/g, '$1<redacted>'],
  // NAME=value where the name says secret (env assignments, .env lines, JSON and YAML pairs, JSON inside
  // JSON with its quotes escaped); after the
  // flags, since in `token: --password x` the secret is the flag's value. The name's start is left out
  // of the match: it stays as it is, and matching stays linear.
  [new RegExp(`(${SECRET_WORD}${NAME})(\\\\?["']?\\s{0,3}[:=]\\s{0,3}\\\\?["']?)([^\\s"'\\\\&;,}]+)`, 'gi'), '$1$2<redacted>'],
];

/**
 * A text none of the rules could match has none of these: the rules run only on a text that has one,
 * which spares most texts (and most hook processes) compiling and running them all. Every rule's
 * literal part must be here, in lower case: it runs on the text lowered, which is faster than /i. The
 * redaction tests generate each shape and would fail without it.
 */
const TRIGGER =
  /private key|:\/\/|hooks\.slack\.com|[spr]k[-_]|gh[pousr]_|github_pat_|gl(?:pat|dt|rt|ptt|cbt|soat|ft|imt|oas|agent)-|xox|xapp-|a(?:kia|sia|gpa|ida|roa|npa|nva|ipa)|aiza|ya29\.|gocspx|npm_|hf_|pypi-|dckr_pat|sg\.|_v1_|shp(?:at|ca|pa|ss)_|eyj|authoriz|api.?key|x-auth|x-access|private.?(?:token|key)|cookie|bearer|[?&](?:key|sig|code|auth|access_token|id_token|refresh_token)=|(?:^|\s)(?:-u|--user)[=\s]|pass|pwd|secret|token|credential|(?:access|session|signing|encryption).?key|signature|sas.?token|connection.?string|auth|mysql|sshpass|\.env/;

/** Long runs of letters and digits mixed the way generated keys are (hex digests, which are no secret, left alone). */
const KEYLIKE = /(?<![A-Za-z0-9_+=-])[A-Za-z0-9_+=-]{32,512}(?![A-Za-z0-9_+=-])/g;

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

export function redact(text: string): string {
  let out = text;
  if (TRIGGER.test(out.toLowerCase())) for (const [re, sub, may] of RULES) if (!may || may(out)) out = out.replace(re, sub);
  // a .env file's every value is a secret as far as we can tell
  if (/\.env\b/.test(out)) out = out.replace(/\b([A-Z][A-Z0-9_]{1,63})=(?!<)[^\s'"]+/g, '$1=<redacted>');
  return out.replace(KEYLIKE, (m) => (looksGenerated(m) ? '<secret>' : m));
}
