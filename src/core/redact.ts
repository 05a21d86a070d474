// Short forms of calls go into the ledger, and commands carry credentials often enough (curl -H
// "Authorization: Bearer ...", DATABASE_URL=postgres://user:pass@..., --token ...). Anything shaped like a
// secret is replaced before a string is stored or shown.

const RULES: [RegExp, string][] = [
  // private key blocks
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, '<private-key>'],
  // credentials inside URLs
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s:/@'"]+:[^\s@/'"]+@/gi, '$1<redacted>@'],
  // well-known token shapes
  [/\b(?:sk|pk|rk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, '<secret>'],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, '<secret>'],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}\b/g, '<secret>'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, '<secret>'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '<secret>'],
  [/\bAIza[0-9A-Za-z_-]{30,}\b/g, '<secret>'],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/g, '<secret>'],
  [/\bnpm_[A-Za-z0-9]{30,}\b/g, '<secret>'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g, '<secret>'],
  // Authorization headers
  [/\b(authorization|x-api-key|api-key|x-auth-token)(\s*[:=]\s*)(?:bearer\s+|basic\s+|token\s+)?[^\s'"]+/gi, '$1$2<redacted>'],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, 'Bearer <redacted>'],
  // NAME=value where the name says secret (env assignments, .env lines, JSON-ish pairs)
  [
    /\b([A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|passwd|pwd|api_?key|apikey|access_?key|private_?key|credential|auth_?token)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)([^\s"'&;,}]+)/gi,
    '$1$2<redacted>',
  ],
  // curl -u user:password, --user user:password
  [/(\s(?:-u|--user)(?:=|\s+))([^\s:'"]+):[^\s'"]+/g, '$1$2:<redacted>'],
  // --password x, --token=x, -p secret style flags
  [/(--?(?:password|passwd|token|secret|api-?key|auth(?:-token)?)(?:=|\s+))([^\s'"]+)/gi, '$1<redacted>'],
];

export function redact(text: string): string {
  let out = text;
  for (const [re, sub] of RULES) out = out.replace(re, sub);
  return out;
}
