import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyChange, changesOf } from './edits.ts';

// What the agents' file tools do to a file, worked out from its text now.

const after = (tool: string, input: Record<string, unknown>, before: string | undefined) =>
  changesOf(tool, input).map((c) => applyChange(before, c));

describe('file tool changes', () => {
  it('replaces the first match, or all of them, as the tools do', () => {
    assert.deepEqual(after('Edit', { file_path: 'f', old_string: 'a', new_string: 'b' }, 'a a'), [{ text: 'b a' }]);
    assert.deepEqual(after('Edit', { file_path: 'f', old_string: 'a', new_string: 'b', replace_all: true }, 'a a'), [
      { text: 'b b' },
    ]);
    assert.deepEqual(
      after('replace', { file_path: 'f', old_string: 'a', new_string: '$&$&', expected_replacements: 2 }, 'a a'),
      [{ text: '$&$& $&$&' }],
    );
    assert.deepEqual(after('edit', { path: 'f', old_str: 'x', new_str: 'y' }, 'x'), [{ text: 'y' }]);
  });

  it('leaves the file as it is when an edit cannot apply, and a MultiEdit whole', () => {
    assert.deepEqual(after('Edit', { file_path: 'f', old_string: 'zz', new_string: 'b' }, 'a'), [{ text: 'a' }]);
    assert.deepEqual(
      after(
        'MultiEdit',
        {
          file_path: 'f',
          edits: [
            { old_string: 'a', new_string: 'b' },
            { old_string: 'zz', new_string: 'c' },
          ],
        },
        'a',
      ),
      [{ text: 'a' }],
    );
    assert.deepEqual(after('Edit', { file_path: 'f', old_string: 'a', new_string: 'b' }, undefined), [{ none: true }]);
    assert.deepEqual(after('Edit', { file_path: 'f', old_string: '', new_string: 'new' }, undefined), [
      { text: 'new' },
    ]);
  });

  it('tells writes, inserts, deletes, moves and patches apart', () => {
    assert.deepEqual(after('Write', { file_path: 'f', content: 'x' }, 'old'), [{ text: 'x' }]);
    assert.deepEqual(
      after('str_replace_editor', { command: 'insert', path: 'f', insert_line: 1, new_str: 'b' }, 'a\nc'),
      [{ text: 'a\nb\nc' }],
    );
    assert.deepEqual(after('Delete', { path: 'f' }, 'x'), [{ none: true }]);
    assert.deepEqual(
      changesOf('mcp__fs__move_file', { source: 'a', destination: 'b' }).map((c) => [c.op, c.path]),
      [
        ['delete', 'a'],
        ['unknown', 'b'],
      ],
    );
    assert.deepEqual(changesOf('str_replace_editor', { command: 'view', path: 'f' }), []);
    assert.deepEqual(
      after('apply_patch', { input: '*** Begin Patch\n*** Update File: f\n@@\n-a\n+b\n*** End Patch' }, 'a\n'),
      [{ text: 'b\n' }],
    );
    assert.deepEqual(after('NotebookEdit', { notebook_path: 'n.ipynb', new_source: 'x' }, '{}'), [{ unknown: true }]);
  });
});
