import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { escapeGlob } from '../shell/lex.ts';
import { globMatcher, piecesMatch } from './glob.ts';

// Globs as the shell reads them, matched against the places stallguard protects.

const matches = (pattern: string, path: string) => globMatcher(pattern)(path);

describe('glob matching', () => {
  it('reads *, ? and sets within one folder or name', () => {
    assert.ok(matches('/home/dev/.clau*/settings*.json', '/home/dev/.claude/settings.json'));
    assert.ok(matches('/p/.claude/settings.?son', '/p/.claude/settings.json'));
    assert.ok(matches('/p/.claude/[st]ettings.json', '/p/.claude/settings.json'));
    assert.ok(matches('/p/.claude/[!x]ettings.json', '/p/.claude/settings.json'));
    assert.ok(matches('/p/.claude/[a-z]ettings.json', '/p/.claude/settings.json'));
    assert.ok(!matches('/p/.claude/[!s]ettings.json', '/p/.claude/settings.json'));
    assert.ok(!matches('/p/*', '/p/.claude/settings.json'), '* stays within one folder');
  });

  it('does not match a leading dot with a wildcard, as the shell does not', () => {
    assert.ok(!matches('/p/*/settings.json', '/p/.claude/settings.json'));
    assert.ok(!matches('/p/?claude', '/p/.claude'));
    assert.ok(matches('/p/.*/settings.json', '/p/.claude/settings.json'));
  });

  it('expands braces first, and takes ** across folders', () => {
    assert.ok(matches('/p/.claude/{hooks,settings}.json', '/p/.claude/settings.json'));
    assert.ok(matches('/p/{.codex,.claude}/settings.json', '/p/.claude/settings.json'));
    assert.ok(matches('/p/**/settings.json', '/p/.claude/settings.json'));
    assert.ok(matches('/p/x{1..9}y', '/p/x5y'), 'a sequence may stand for any text');
  });

  it('reads escaped and unclosed syntax literally', () => {
    assert.ok(matches('/p/a\\*b', '/p/a*b'));
    assert.ok(!matches('/p/a\\*b', '/p/axb'));
    assert.ok(matches('/p/a[', '/p/a['));
    assert.ok(matches(`/p/${escapeGlob('a = [] b(t[i:j])')}`, '/p/a = [] b(t[i:j])'));
    assert.ok(!matches(`/p/${escapeGlob('a = [] b(t[i:j])')}`, '/p/a = x b(t[i:j])'));
  });

  it('stays fast on hostile patterns', { timeout: 10_000 }, () => {
    for (const p of [
      '/' + '*a'.repeat(5000),
      '/' + '['.repeat(100_000),
      '/' + '{a,'.repeat(20_000),
      '/' + '{a,b}'.repeat(50),
      '/**'.repeat(500) + '/x',
      '/[' + 'a'.repeat(100_000) + ']',
      '/' + '[[:'.repeat(30_000),
    ]) {
      const m = globMatcher(p);
      for (let i = 0; i < 50; i++) m('/home/dev/proj/.claude/settings.json');
    }
  });
});

describe('run-time names', () => {
  it('match by their known pieces, in order', () => {
    assert.ok(piecesMatch(['', '/settings.json'], '/p/.claude/settings.json'));
    assert.ok(piecesMatch(['/p/', '/settings.json'], '/p/.claude/settings.json'));
    assert.ok(!piecesMatch(['/p/.claude/settings.json.bak-', ''], '/p/.claude/settings.json'));
    assert.ok(!piecesMatch(['/p/x', 'x'], '/p/x'), 'pieces do not overlap');
  });
});
