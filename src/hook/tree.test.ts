import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { MAX_ENTRIES } from './git-files.ts';
import {
  type Changed,
  CONTENT_BUDGET,
  FILE_CAP,
  fingerprintWithGit,
  plan,
  statusPaths,
  treeFingerprint,
} from './tree.ts';

// The fingerprint runs inside the hook after a failing test run: it must see every change that matters,
// and cost little however large the repository.

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], {
    cwd,
    stdio: 'pipe',
    env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
  }).toString();

/** A repository of `files` committed files, then `changed` of them modified, a few of them past FILE_CAP. */
function repository(files: number, changed: number): string {
  const root = mkdtempSync(join(tmpdir(), 'sg-tree-'));
  git(root, 'init', '-q');
  for (let d = 0; d * 100 < files; d++) {
    mkdirSync(join(root, `src/d${d}`), { recursive: true });
    for (let f = 0; f < 100 && d * 100 + f < files; f++)
      writeFileSync(join(root, `src/d${d}/f${f}.ts`), `export const v = ${d * 100 + f};\n`);
  }
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  for (let i = 0; i < changed; i++)
    appendFileSync(
      join(root, `src/d${Math.floor(i / 100)}/f${i % 100}.ts`),
      i % 50 === 0 ? 'x'.repeat(FILE_CAP + 1) : `// edit ${i}\n`,
    );
  return root;
}

describe('plan: what the fingerprint reads', () => {
  it('reads at most the budget, never a file past the cap, and counts every file one way or the other', () => {
    const file = fc.record({ path: fc.string(), size: fc.nat(3 * FILE_CAP), mtimeMs: fc.nat() });
    fc.assert(
      fc.property(fc.array(file, { maxLength: 400 }), (files: Changed[]) => {
        const { read, stat } = plan(files);
        assert.ok(read.length <= 200);
        assert.ok(read.reduce((n, f) => n + f.size, 0) <= CONTENT_BUDGET);
        assert.ok(read.every((f) => f.size <= FILE_CAP));
        assert.equal(read.length + stat.length, files.length);
      }),
    );
  });
});

describe('statusPaths', () => {
  it('takes the path of ordinary, renamed, unmerged and untracked entries', () => {
    const status = [
      '# branch.oid abc',
      '1 .M N... 100644 100644 100644 aaa bbb src/a b.ts',
      '2 R. N... 100644 100644 100644 aaa bbb R100 src/new.ts',
      'src/old.ts',
      'u UU N... 100644 100644 100644 100644 aaa bbb ccc src/conflict.ts',
      '? notes.txt',
      '',
    ].join('\0');
    assert.deepEqual(statusPaths(status), ['src/a b.ts', 'src/new.ts', 'src/conflict.ts', 'notes.txt']);
  });
});

describe('treeFingerprint on a large repository', () => {
  const root = repository(5000, 400);

  it('is stable while nothing changes', () => {
    assert.equal(treeFingerprint(join(root, 'src')), treeFingerprint(root));
  });

  it('changes with a file it reads, and comes back when the edit is undone (edit/revert is seen)', () => {
    const before = treeFingerprint(root);
    const file = join(root, 'src/d0/f1.ts');
    appendFileSync(file, '// more\n');
    const during = treeFingerprint(root);
    assert.notEqual(during, before);
    writeFileSync(file, `export const v = 1;\n// edit 1\n`);
    assert.equal(treeFingerprint(root), before);
  });

  it('changes with a file past the budget or the cap, by its size', () => {
    const before = treeFingerprint(root);
    appendFileSync(join(root, 'src/d0/f0.ts'), 'y'); // past FILE_CAP
    assert.notEqual(treeFingerprint(root), before);
    const again = treeFingerprint(root);
    appendFileSync(join(root, 'src/d3/f99.ts'), 'z'); // the 400th changed file: past the files that are read
    assert.notEqual(treeFingerprint(root), again);
  });

  it('is undefined outside a repository', () => {
    assert.equal(treeFingerprint(mkdtempSync(join(tmpdir(), 'sg-norepo-'))), undefined);
  });
});

describe('treeFingerprint from git files, beside git itself', () => {
  // the same walk of changes through both: two states have the same fingerprint read from git's files
  // exactly when they have the same fingerprint from `git status`
  it('tells states apart exactly where git status does', () => {
    const root = repository(30, 3);
    const file = (i: number) => join(root, `src/d0/f${i}.ts`);
    const text = (i: number) => readFileSync(file(i), 'utf8');
    const original = text(5);
    const steps: [string, () => void][] = [
      ['nothing', () => undefined],
      ['an edit', () => appendFileSync(file(5), '// fix\n')],
      ['the same content again, rewritten', () => writeFileSync(file(5), text(5))],
      ['the edit undone', () => writeFileSync(file(5), original)],
      ['a file touched', () => utimesSync(file(7), new Date(), new Date(Date.now() + 5000))],
      ['an untracked file', () => writeFileSync(join(root, 'notes.txt'), 'a\n')],
      ['the untracked file changed', () => writeFileSync(join(root, 'notes.txt'), 'b\n')],
      ['an untracked folder', () => mkdirSync(join(root, 'scratch', 'deep'), { recursive: true })],
      ['a file in it', () => writeFileSync(join(root, 'scratch', 'deep', 'x.txt'), 'x')],
      ['staged', () => git(root, 'add', 'src/d0/f1.ts')],
      ['made executable', () => chmodSync(file(9), 0o755)],
      ['a tracked file removed', () => rmSync(file(11))],
      ['committed', () => git(root, 'commit', '-qam', 'next')],
      ['a new branch', () => git(root, 'checkout', '-qb', 'other')],
      ['back to the first commit', () => git(root, 'checkout', '-q', 'HEAD~1')],
      ['the untracked file gone', () => rmSync(join(root, 'notes.txt'))],
    ];
    const seen: { what: string; files: string | undefined; git: string | undefined }[] = [];
    for (const [what, step] of steps) {
      step();
      seen.push({ what, files: treeFingerprint(root), git: fingerprintWithGit(root) });
    }
    for (const a of seen)
      for (const b of seen)
        assert.equal(a.files === b.files, a.git === b.git, `${a.what} / ${b.what}: ${JSON.stringify([a, b])}`);
    assert.ok(new Set(seen.map((s) => s.files)).size > 8, 'the walk went through many states');
  });

  it('reads a branch from packed-refs, and a linked worktree from its own git folder', () => {
    const root = repository(10, 1);
    const before = treeFingerprint(root);
    git(root, 'pack-refs', '--all');
    assert.equal(treeFingerprint(root), before, 'the same commit, its ref packed');
    const linked = `${root}-linked`;
    git(root, 'worktree', 'add', '-q', linked);
    const there = [treeFingerprint(linked), fingerprintWithGit(linked)];
    appendFileSync(join(linked, 'src/d0/f3.ts'), '// there\n');
    assert.notEqual(treeFingerprint(linked), there[0]);
    assert.notEqual(fingerprintWithGit(linked), there[1]);
    assert.equal(treeFingerprint(root), before, 'the first work tree is as it was');
  });

  it('starts no process in a repository of up to MAX_ENTRIES files', () => {
    const root = repository(50, 2);
    const before = treeFingerprint(root);
    assert.match(before!, /^[0-9a-f]{16}$/);
    // the JS fingerprint never runs git: with git off PATH it is the same
    const path = process.env.PATH;
    process.env.PATH = '/nonexistent';
    try {
      assert.equal(treeFingerprint(root), before);
    } finally {
      process.env.PATH = path;
    }
  });

  it('asks git past MAX_ENTRIES tracked files', () => {
    const root = repository(MAX_ENTRIES + 1, 1);
    assert.equal(treeFingerprint(root), fingerprintWithGit(root));
  });
});
