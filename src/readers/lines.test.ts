import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { fileLines } from './lines.ts';

// fileLines cuts each chunk at a newline byte and decodes it whole: lines that straddle chunks, characters
// of several bytes cut by a chunk, and lines longer than the buffer must come out as the text has them.

describe('fileLines', () => {
  it('gives the lines of any text, whatever the chunk size', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-lines-'));
    const file = join(dir, 'f.jsonl');
    const piece = fc.oneof(
      fc.constantFrom('\n', '\n\n', 'é', '€', '😀', '{"a":1}'),
      fc.string({ unit: 'grapheme', maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 16 }), (pieces, chunk) => {
        const text = pieces.join('');
        writeFileSync(file, text);
        const expected = text.split('\n');
        if (expected.at(-1) === '') expected.pop();
        let bytes = 0;
        assert.deepEqual([...fileLines(file, chunk, (n) => (bytes += n))], expected);
        assert.equal(bytes, Buffer.byteLength(text));
      }),
      { numRuns: 1500 },
    );
  });
});
