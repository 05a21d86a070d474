import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HOLE, lexShell } from './lex.ts';

// Commands split as the shell splits them, for self-protection and classification alike.

const words = (command: string) => lexShell(command).map((s) => s.words);

describe('shell lexer', () => {
  it('splits commands, removes quotes, and takes redirections out of the words', () => {
    assert.deepEqual(words(`cd a && rm "b c" 'd'; echo x|wc -l`), [
      ['cd', 'a'],
      ['rm', 'b c', 'd'],
      ['echo', 'x'],
      ['wc', '-l'],
    ]);
    const [echo] = lexShell('echo x > "out file" 2>&1');
    assert.deepEqual([echo!.words, echo!.writes], [['echo', 'x'], ['out file']]);
  });

  it('attaches here-documents and here-strings to the command they feed', () => {
    const [cat] = lexShell("cat > f <<'EOF'\nrm -rf /\nEOF");
    assert.deepEqual([cat!.words, cat!.writes, cat!.stdin], [['cat'], ['f'], ['rm -rf /']]);
    assert.deepEqual(lexShell('sh <<< "rm x"')[0]!.stdin, ['rm x']);
  });

  it('returns substituted commands as commands of their own, and marks where their value goes', () => {
    const segs = lexShell('rm "$(dirname x)/settings.json"');
    assert.deepEqual(
      segs.map((s) => s.words),
      [
        ['dirname', 'x'],
        ['rm', `${HOLE}/settings.json`],
      ],
    );
    assert.equal(segs[1]!.dynamic, true);
    assert.deepEqual(
      segs.map((s) => s.nested),
      [true, false],
    );
    assert.deepEqual(words('cp a b.bak-$(date +%s)')[1], ['cp', 'a', `b.bak-${HOLE}`]);
  });

  it('keeps the glob pattern of an unquoted word, with its quoted characters escaped', () => {
    const [rm] = lexShell('rm ~/.clau*/x "[1]"*.json "a[b]" out[1].txt');
    assert.deepEqual(
      [...rm!.globs],
      [
        ['~/.clau*/x', '~/.clau*/x'],
        ['[1]*.json', '\\[1\\]*.json'],
        ['out[1].txt', 'out[1].txt'],
      ],
    );
    assert.equal(lexShell('echo x > "a = [] b(t[i:j])"')[0]!.globs.size, 0);
  });

  it('reads PowerShell with the backtick as its escape', () => {
    assert.deepEqual(
      lexShell('Remove-Item -Path .claude\\settings.json `"x`"', true).map((s) => s.words),
      [['Remove-Item', '-Path', '.claude\\settings.json', '"x"']],
    );
  });
});
