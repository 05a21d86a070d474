import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { fileLines } from './lines.ts';

// fileLines cuts the bytes at each newline byte and decodes each line alone: lines that straddle chunks,
// characters of several bytes cut by a chunk, bytes that are no UTF-8 and lines longer than the buffer must
// come out as the whole file decoded at once has them.

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

  it('decodes bytes that are no UTF-8 as the whole file decoded at once does', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-lines-'));
    const file = join(dir, 'f.jsonl');
    const piece = fc.oneof(
      fc.constantFrom([10], [0xe2, 0x82], [0xe2, 0x82, 0xac], [0xf0, 0x9f], [0xc3], [0x80], [0xff], [0x61]),
      fc.array(fc.integer({ min: 0, max: 255 }), { maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.integer({ min: 1, max: 16 }), (pieces, chunk) => {
        const bytes = Buffer.from(pieces.flat());
        writeFileSync(file, bytes);
        const expected = bytes.toString('utf8').split('\n');
        if (expected.at(-1) === '') expected.pop();
        assert.deepEqual([...fileLines(file, chunk)], expected);
      }),
      { numRuns: 1500 },
    );
  });
});
