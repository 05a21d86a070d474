import fc from 'fast-check';

// Credentials of every shape stallguard knows, generated at random: for the redaction tests, and for the
// hook tests that grep the ledger for them.

const chars = (alphabet: string, min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const B64URL = ALNUM + '_-';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** A random part long enough, and varied enough, that finding it in the output cannot be chance. */
const body = (alphabet: string, min: number, max: number) =>
  chars(alphabet, min, max).filter((b) => /[g-zG-Z]/.test(b) || alphabet === UPPER_DIGITS);

/** [family, a secret in context and the part of it that must not survive] */
export const SECRET_FAMILIES: [string, fc.Arbitrary<{ text: string; secret: string }>][] = [
  ['Anthropic key', body(B64URL, 40, 90).map((b) => ({ text: `sk-ant-api03-${b}`, secret: b }))],
  ['OpenAI key', body(ALNUM, 40, 60).map((b) => ({ text: `sk-proj-${b}`, secret: b }))],
  ['Stripe key', body(ALNUM, 24, 40).map((b) => ({ text: `sk_live_${b}`, secret: b }))],
  ['GitHub token', body(ALNUM, 36, 40).map((b) => ({ text: `ghp_${b}`, secret: b }))],
  ['GitHub fine-grained token', body(ALNUM + '_', 60, 82).map((b) => ({ text: `github_pat_${b}`, secret: b }))],
  ['GitLab token', body(B64URL, 20, 30).map((b) => ({ text: `glpat-${b}`, secret: b }))],
  ['Slack token', body(ALNUM, 24, 32).map((b) => ({ text: `xoxb-123456789012-123456789012-${b}`, secret: b }))],
  ['npm token', body(ALNUM, 36, 36).map((b) => ({ text: `npm_${b}`, secret: b }))],
  ['AWS access key id', body(UPPER_DIGITS, 16, 16).map((b) => ({ text: `AKIA${b}`, secret: b }))],
  ['Google API key', body(B64URL, 35, 35).map((b) => ({ text: `AIza${b}`, secret: b }))],
  ['Hugging Face token', body(ALNUM, 34, 34).map((b) => ({ text: `hf_${b}`, secret: b }))],
  [
    'JWT',
    fc
      .tuple(body(B64URL, 20, 40), body(B64URL, 20, 80), body(B64URL, 30, 60))
      .map(([a, b, c]) => ({ text: `eyJ${a}.eyJ${b}.${c}`, secret: `${b}.${c}` })),
  ],
  [
    'private key',
    fc.array(body(ALNUM + '+/', 64, 64), { minLength: 2, maxLength: 6 }).map((lines) => ({
      text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${lines.join('\n')}\n-----END OPENSSH PRIVATE KEY-----`,
      secret: lines[0]!,
    })),
  ],
  [
    'password in a URL',
    body(ALNUM + '!$*', 12, 24).map((p) => ({ text: `postgres://app:${p}@db.internal:5432/prod`, secret: p })),
  ],
  ['token in a URL', body(ALNUM, 30, 40).map((t) => ({ text: `https://${t}@github.com/acme/repo.git`, secret: t }))],
  [
    'Authorization: Bearer',
    body(B64URL + '.', 20, 60).map((t) => ({ text: `-H "Authorization: Bearer ${t}"`, secret: t })),
  ],
  [
    'Authorization: Basic',
    body(ALNUM + '+/', 20, 40).map((t) => ({ text: `--header 'authorization: Basic ${t}'`, secret: t })),
  ],
  ['x-api-key header', body(ALNUM, 20, 40).map((t) => ({ text: `-H 'x-api-key: ${t}'`, secret: t }))],
  [
    'a key in a query string',
    body(ALNUM, 20, 40).map((t) => ({ text: `https://maps.example.com/api?q=x&key=${t}`, secret: t })),
  ],
  [
    'NAME=value',
    fc
      .tuple(
        fc.constantFrom(
          'API_KEY',
          'DB_PASSWORD',
          'GITHUB_TOKEN',
          'AWS_SECRET_ACCESS_KEY',
          'client_secret',
          'PGPASSWORD',
          'SESSION_KEY',
        ),
        body(ALNUM, 12, 40),
      )
      .map(([n, v]) => ({ text: `${n}=${v}`, secret: v })),
  ],
  [
    'a JSON pair',
    fc
      .tuple(fc.constantFrom('password', 'apiKey', 'access_token', 'secret'), body(ALNUM, 12, 40))
      .map(([n, v]) => ({ text: `{"${n}": "${v}"}`, secret: v })),
  ],
  [
    'a flag',
    fc
      .tuple(
        fc.constantFrom('--password', '--token', '--api-key', '--client-secret'),
        fc.constantFrom(' ', '='),
        body(ALNUM, 12, 40),
      )
      .map(([f, sep, v]) => ({ text: `${f}${sep}${v}`, secret: v })),
  ],
  ['curl -u', body(ALNUM, 12, 30).map((v) => ({ text: `curl -u admin:${v} https://x`, secret: v }))],
  ['mysql -p', body(ALNUM, 12, 30).map((v) => ({ text: `mysql -u root -p${v} prod`, secret: v }))],
  [
    'a .env value',
    fc
      .tuple(fc.constantFrom('STRIPE', 'DATABASE_URL', 'SENTRY'), body(ALNUM, 12, 30))
      .map(([n, v]) => ({ text: `echo "${n}=${v}" >> .env`, secret: v })),
  ],
  [
    'a generated key without a label',
    body(ALNUM, 40, 64)
      .filter(
        (b) =>
          (b.match(/[A-Z]/g)?.length ?? 0) >= 2 &&
          (b.match(/[a-z]/g)?.length ?? 0) >= 2 &&
          (b.match(/\d/g)?.length ?? 0) >= 4,
      )
      .map((b) => ({ text: b, secret: b })),
  ],
];

/** Where a secret sits in a command or a string: after a space, quote, equals sign, colon, or at the start. */
export const around = fc.tuple(
  fc.constantFrom('', 'curl ', 'echo "', "x='", 'KEY=', 'token: ', '\n', 'git push '),
  fc.constantFrom('', ' ', '"', "'", '\n', ' && npm test', ';'),
);
