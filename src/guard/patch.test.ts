import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyHunks, parsePatch } from './patch.ts';

// Patches as Codex's apply_patch and unified diffs write them, applied by their text.

describe('patches', () => {
  it("reads Codex's format: updates, moves, additions and deletions", () => {
    const files = parsePatch(
      '*** Begin Patch\n*** Update File: a.json\n*** Move to: b.json\n@@\n x\n' +
        '-y\n+z\n*** Add File: c.txt\n+hello\n*** Delete File: d.txt\n*** End Patch',
    );
    assert.deepEqual(files, [
      { op: 'update', path: 'a.json', moveTo: 'b.json', hunks: [{ old: ['x', 'y'], new: ['x', 'z'] }] },
      { op: 'add', path: 'c.txt', lines: ['hello'] },
      { op: 'delete', path: 'd.txt' },
    ]);
  });

  it('reads unified diffs', () => {
    assert.deepEqual(
      parsePatch(
        '--- a/x.json\n+++ b/x.json\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1 @@\n+n\n',
      ),
      [
        { op: 'update', path: 'x.json', hunks: [{ old: ['a', 'b'], new: ['a', 'c'] }] },
        { op: 'add', path: 'new.txt', lines: ['n'] },
      ],
    );
  });

  it(
    'applies hunks by their text, then ignoring white space ' + 'at the ends, and fails where the text is not there',
    () => {
      assert.equal(applyHunks('a\nb\nc\n', [{ old: ['b'], new: ['B'] }]), 'a\nB\nc\n');
      assert.equal(applyHunks('a\n  b  \nc', [{ old: ['b'], new: ['B'] }]), 'a\nB\nc');
      assert.equal(applyHunks('a\nb\n', [{ old: [], new: ['z'] }]), 'a\nb\nz\n');
      assert.equal(applyHunks('a\nb\n', [{ old: ['q'], new: ['z'] }]), undefined);
    },
  );
});
