import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { redact } from './redact.ts';

// redact skips a rule when its hint (text the rule cannot match without) is absent. Skipping must change
// nothing: this is every rule, always run, in the same order.

const EVERY_RULE: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g, '<private-key>'],
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s:/@'"]+:[^\s@/'"]+@/gi, '$1<redacted>@'],
  [/\b(?:sk|pk|rk)-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,}/g, '<secret>'],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}\b/g, '<secret>'],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}\b/g, '<secret>'],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g, '<secret>'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, '<secret>'],
  [/\bAIza[0-9A-Za-z_-]{30,}\b/g, '<secret>'],
  [/\bglpat-[A-Za-z0-9_-]{20,}\b/g, '<secret>'],
  [/\bnpm_[A-Za-z0-9]{30,}\b/g, '<secret>'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g, '<secret>'],
  [/\b(authorization|x-api-key|api-key|x-auth-token)(\s*[:=]\s*)(?:bearer\s+|basic\s+|token\s+)?[^\s'"]+/gi, '$1$2<redacted>'],
  [/\bbearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, 'Bearer <redacted>'],
  [/\b([A-Za-z0-9_.-]*(?:secret|token|passw(?:or)?d|passwd|pwd|api_?key|apikey|access_?key|private_?key|credential|auth_?token)[A-Za-z0-9_.-]*)(["']?\s*[:=]\s*["']?)([^\s"'&;,}]+)/gi, '$1$2<redacted>'],
  [/(\s(?:-u|--user)(?:=|\s+))([^\s:'"]+):[^\s'"]+/g, '$1$2:<redacted>'],
  [/(--?(?:password|passwd|token|secret|api-?key|auth(?:-token)?)(?:=|\s+))([^\s'"]+)/gi, '$1<redacted>'],
];

const everyRule = (text: string) => EVERY_RULE.reduce((t, [re, sub]) => t.replace(re, sub), text);

const PIECES = [
  ' ', '=', ':', '-', '--', '"', "'", '@', '://', 'https://', 'user:pw@host', '-----BEGIN RSA PRIVATE KEY-----', 'abc', '-----END RSA PRIVATE KEY-----',
  'sk-ant-', 'pk-live-', 'rk-', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ012345', 'ghp_', 'gho_', 'github_pat_', 'xoxb-', 'AKIA', 'ASIA', 'AIza', 'glpat-', 'npm_', 'eyJ', '.',
  'Authorization', 'AUTHORIZATION: ', 'x-api-key', 'Api-Key', 'X-Auth-Token', 'Bearer ', 'bearer ', 'token ', 'basic ', 'SECRET', 'db_password', 'PASSWD', 'pwd', 'API_KEY',
  'apikey', 'Access_Key', 'private_key', 'credentials', 'auth_token', ' -u ', ' --user=', '--password', '-p', '--token=', '--secret ', '--api-key', '--auth', '--auth-token',
];

describe('redact', () => {
  it('gives exactly what every rule run in full gives', () => {
    const text = fc.array(fc.oneof(fc.constantFrom(...PIECES), fc.string({ maxLength: 5 })), { maxLength: 30 }).map((p) => p.join(''));
    fc.assert(fc.property(text, (t) => assert.equal(redact(t), everyRule(t))), { numRuns: 5000 });
  });

  it('removes what is shaped like a secret', () => {
    assert.equal(redact('curl -H "Authorization: Bearer abcdefghijkl" -u admin:hunter2 https://bob:pw@example.com'), 'curl -H "Authorization: <redacted>" -u admin:<redacted> https://<redacted>@example.com');
  });
});
