import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sha256Hex } from './sha256.ts';
import { MODULE, sha256WasmHex } from './sha256-wasm.ts';
import { assemble } from '../../test/support/sha256-asm.ts';

// The hook's own SHA-256 must be SHA-256: the ledger's keys and digests are compared across processes,
// with the scan and the daemon (which use node:crypto), and across versions.

const reference = (s: string) => createHash('sha256').update(s).digest('hex');

describe('sha256Hex', () => {
  it('is node:crypto sha256 for every length around the block boundaries, and for any text', () => {
    for (let n = 0; n <= 200; n++) assert.equal(sha256Hex('a'.repeat(n)), reference('a'.repeat(n)), `length ${n}`);
    for (const t of ['é€😀', 'lone \ud800 surrogate', 'x'.repeat(100_003)]) assert.equal(sha256Hex(t), reference(t));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 700 }), (t) => sha256Hex(t) === reference(t)),
      { numRuns: 1000 },
    );
    assert.equal(sha256Hex('abc', 2), reference('abc').slice(0, 16));
  });
});

describe('sha256WasmHex', () => {
  it('runs the module its instructions assemble to', () => {
    assert.equal(MODULE, Buffer.from(assemble()).toString('hex'));
  });

  it('is node:crypto sha256 too, call after call, for texts that grow its memory and texts that follow them', () => {
    for (let n = 0; n <= 200; n++) assert.equal(sha256WasmHex('a'.repeat(n)), reference('a'.repeat(n)), `length ${n}`);
    for (const t of ['é€😀', 'lone \ud800 surrogate', 'x'.repeat(100_003), 'y'.repeat(300_000), 'abc'])
      assert.equal(sha256WasmHex(t), reference(t));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 700 }), (t) => sha256WasmHex(t) === reference(t)),
      { numRuns: 1000 },
    );
    assert.equal(sha256WasmHex('abc', 2), reference('abc').slice(0, 16));
  });
});
