// Short forms of calls go into the ledger, and commands carry credentials often enough (curl -H
// "Authorization: Bearer ...", DATABASE_URL=postgres://user:pass@..., --token ...). Anything shaped like a
// secret is replaced before a string is stored or shown.

// Each rule comes with a hint: text the rule cannot match without (tested on the lower-cased text where the
// rule ignores case). A rule whose hint is absent is skipped, so a command with nothing secret-shaped in it
// does not compile sixteen regular expressions in every hook process.
type Hint = (text: string, lower: string) => boolean;
const has = (...parts: string[]): Hint => (t) => parts.some((p) => t.includes(p));
const hasLower = (...parts: string[]): Hint => (_, l) => parts.some((p) => l.includes(p));

const RULES: [Hint, RegExp, string][] = [
  // private key blocks
  [has('-----BEGIN '), /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, '<private-key>'],
  // credentials inside URLs
  [(t) => t.includes('://') && t.includes('@'), /\b([a-z][a-z0-9+.-]*:\/\/)[^\s:/@'"]+:[^\s@/'"]+@/gi, '$1<redacted>@'],
  // well-known token shapes
  [has('sk-', 'pk-', 'rk-'), /\b(?:sk|pk|rk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, '<secret>'],
  [(t) => t.includes('gh') && t.includes('_'), /\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, '<secret>'],
  [has('github_pat_'), /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g, '<secret>'],
  [has('xox'), /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, '<secret>'],
  [has('AKIA', 'ASIA'), /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '<secret>'],
  [has('AIza'), /\bAIza[0-9A-Za-z_-]{30,}\b/g, '<secret>'],
  [has('glpat-'), /\bglpat-[A-Za-z0-9_-]{20,}\b/g, '<secret>'],
  [has('npm_'), /\bnpm_[A-Za-z0-9]{30,}\b/g, '<secret>'],
  [has('eyJ'), /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g, '<secret>'],
  // Authorization headers
  [hasLower('authorization', 'api-key', 'x-auth-token'), /\b(authorization|x-api-key|api-key|x-auth-token)(\s*[:=]\s*)(?:bearer\s+|basic\s+|token\s+)?[^\s'"]+/gi, '$1$2<redacted>'],
  [hasLower('bearer'), /\bbearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, 'Bearer <redacted>'],
  // NAME=value where the name says secret (env assignments, .env lines, JSON-ish pairs)
  [
    (t, l) => (t.includes('=') || t.includes(':')) && ['secret', 'token', 'passw', 'pwd', 'api_key', 'apikey', 'access_key', 'accesskey', 'private_key', 'privatekey', 'credential'].some((p) => l.includes(p)),
    /\b([A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|passwd|pwd|api_?key|apikey|access_?key|private_?key|credential|auth_?token)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)([^\s"'&;,}]+)/gi,
    '$1$2<redacted>',
  ],
  // curl -u user:password, --user user:password
  [has('-u'), /(\s(?:-u|--user)(?:=|\s+))([^\s:'"]+):[^\s'"]+/g, '$1$2:<redacted>'],
  // --password x, --token=x, -p secret style flags
  [(t, l) => t.includes('-') && ['passw', 'token', 'secret', 'apikey', 'api-key', 'auth'].some((p) => l.includes(p)), /(--?(?:password|passwd|token|secret|api-?key|auth(?:-token)?)(?:=|\s+))([^\s'"]+)/gi, '$1<redacted>'],
];

export function redact(text: string): string {
  let out = text;
  for (const [hint, re, sub] of RULES) if (hint(out, out.toLowerCase())) out = out.replace(re, sub);
  return out;
}
