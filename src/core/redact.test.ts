import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { around, SECRET_FAMILIES } from '../../test/support/secrets.ts';
import { redact, redactAllRules, redactText } from './redact.ts';

// Every credential shape we know, generated at random and placed in the kinds of text that end up in
// short forms: it must not survive. And text that only looks busy must come through unchanged.

describe('redact', () => {
  const words = fc.constantFrom(
    'pass',
    'passed',
    '--password',
    'token',
    'Authorization',
    'api-key',
    'x-api-key',
    'API_KEY=',
    'https://',
    '@',
    'mysql -p',
    'sk-',
    'ghp_',
    '?key=',
    '-u',
    ' --user ',
    'cookie:',
    'Bearer ',
    ':',
    '=',
    ' ',
    '"',
    '\\"',
    '.env',
    '.envrc',
    'AKIA',
    'TO\u212aEN=',
    'P\u0130D=',
    'Zq9xK2mP7vR4tY8wB3nL6hJ1cF5dG0s',
    'connection_string',
    'Connection-String_x',
    'client_secret',
    'clientSecret',
    'CLIENTSECRET',
    'secret',
    'auth_token',
    'sas_token',
    'private_key',
    'signing_key',
    'session_key',
    'encryption_key',
    'access_key',
    'apikey',
    'api_key',
    'pwd',
    'passwd',
    'Password',
    'credentials',
    'Signature',
    'a'.repeat(38),
    'b'.repeat(40),
    '   ',
    'passed',
    '\\',
    'A1b2',
    '-',
    '+',
  );
  const text = fc.oneof(
    fc.string({ maxLength: 200 }),
    fc
      .array(fc.oneof(words, fc.string({ unit: fc.constantFrom(...'aZ09_-=:@./ "'), maxLength: 30 })), {
        maxLength: 30,
      })
      .map((p) => p.join('')),
    ...SECRET_FAMILIES.map(([, secret]) =>
      fc.tuple(secret, around).map(([{ text }, [before, after]]) => before + text + after),
    ),
  );

  // first in the file: a process that has redacted little looks for each hint in the lowered text, one that
  // has redacted much builds an automaton for them (the test after this one); both must redact alike
  it('runs only the rules a text has hints for, and redacts exactly as all the rules would', () => {
    fc.assert(
      fc.property(text, (t) => assert.equal(redactText(t), redactAllRules(t))),
      { numRuns: 3000 },
    );
  });

  it('redacts the same once the process has redacted enough to find the hints with an automaton', () => {
    redact('x'.repeat(300_000));
    fc.assert(
      fc.property(text, (t) => assert.equal(redactText(t), redactAllRules(t))),
      { numRuns: 2000 },
    );
  });

  it('redacts a text it has redacted before as it did the first time', () => {
    fc.assert(
      fc.property(text, (t) => {
        assert.equal(redact(t), redactAllRules(t));
        assert.equal(redact(t), redactAllRules(t));
      }),
      { numRuns: 500 },
    );
  });

  for (const [family, secret] of SECRET_FAMILIES) {
    it(`removes ${family}, wherever it sits`, () => {
      fc.assert(
        fc.property(secret, around, ({ text, secret }, [before, after]) => {
          const out = redact(before + text + after);
          assert.equal(out.includes(secret), false, out);
        }),
        { numRuns: 60 },
      );
    });
  }

  const UNCHANGED = [
    'npm test -- --grep "parses the config file"',
    'git show 3f2a9c1e4b5d6a7f8e9d0c1b2a3f4e5d6c7b8a9f',
    'sha256sum dist/hook.cjs  e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    'docker run --rm -v /home/dev/proj:/src node:20 npm ci',
    'rm -rf node_modules/.cache/babel-loader',
    'cat src/components/UserProfileCard/index.tsx',
    'pytest tests/test_auth.py::test_login_rejects_bad_password -x',
    'grep -rn "password" src/',
    'kubectl get pods -n 550e8400-e29b-41d4-a716-446655440000',
    'export PATH=$PATH:/opt/bin',
    'Get-ChildItem specs/001-category-crud-auth -Recurse -Force',
    'node scripts/reset-password --dry-run',
  ];
  for (const text of UNCHANGED) it(`leaves "${text}" as it is`, () => assert.equal(redact(text), text));

  it('finds a key at the lengths where the check before its pass decides: 31, 32, 512 and 513 key characters', () => {
    const key = (n: number) => 'Zq9xK2mP7vR4tY8wB3nL6hJ1cF5dG0sA'.repeat(17).slice(0, n);
    for (const n of [31, 32, 33, 512, 513])
      for (const text of [key(n), `a ${key(n)}`, `${key(n)} b`, `"${key(n)}"`])
        assert.equal(redact(text), redactAllRules(text), `${n} key characters in ${text.length}`);
    assert.equal(redact(`x ${key(32)}`), 'x <secret>');
    assert.equal(redact(`x ${key(31)}`), `x ${key(31)}`);
  });

  it('replaces a generated key standing alone, and leaves a longer run of key characters whole', () => {
    const key = 'Zq9xK2mP7vR4tY8wB3nL6hJ1cF5dG0sA';
    assert.equal(redact(`echo ${key} done`), 'echo <secret> done');
    const long = (key + 'Qw').repeat(20); // 680 characters: no key, and no piece of it is one
    assert.equal(redact(`blob ${long} end`), `blob ${long} end`);
  });

  // Every pattern is bounded, so these complete at all (a backtracking pattern would not, in the test's
  // timeout); and each comes out as it should.
  const HOSTILE: [string, string, (out: string) => void][] = [
    ['a run of dashes', 'a-'.repeat(1_000_000), (out) => assert.equal(out, 'a-'.repeat(1_000_000))],
    ['one 10 MB word', 'xY7'.repeat(3_500_000), (out) => assert.equal(out, 'xY7'.repeat(3_500_000))],
    ['pass, pass, pass', 'pass-'.repeat(400_000), (out) => assert.equal(out, 'pass-'.repeat(400_000))],
    ['mysql with no -p', 'mysql '.repeat(300_000), (out) => assert.equal(out, 'mysql '.repeat(300_000))],
    ['schemes with no host', 'https://'.repeat(300_000), (out) => assert.equal(out, 'https://'.repeat(300_000))],
    [
      'a private key that never ends',
      '-----BEGIN RSA PRIVATE KEY-----'.repeat(60_000),
      (out) => assert.equal(out, '<private-key>'),
    ],
    [
      'headers with headers for values',
      'Authorization: '.repeat(100_000),
      (out) => {
        assert.equal(out, 'Authorization: <redacted> '.repeat(50_000));
      },
    ],
  ];
  for (const [name, text, check] of HOSTILE)
    it(`stays linear on hostile text: ${name}`, { timeout: 30_000 }, () => check(redact(text)));
});
