import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { sha1Hex } from './sha1.ts';

describe('sha1Hex', () => {
  it('is node:crypto SHA-1, for any bytes and at every block boundary', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) =>
        assert.equal(sha1Hex(b), createHash('sha1').update(b).digest('hex')),
      ),
    );
    for (const n of [0, 55, 56, 63, 64, 65, 119, 120, 1000, 70_000]) {
      const b = new Uint8Array(n).map((_, i) => (i * 31) & 255);
      assert.equal(sha1Hex(b), createHash('sha1').update(b).digest('hex'), `${n} bytes`);
    }
  });
});
