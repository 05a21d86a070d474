import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { digest } from './digest.ts';

// The hook hashes in pure JS and long-running commands switch to node:crypto: both must give the digests
// the ledger already holds, or a session would stop recognising its own earlier calls.

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

describe('digest', () => {
  it('is the first 64 bits of sha256 over UTF-8, for any text, before and after the switch to node:crypto', () => {
    const texts = ['', 'a', 'Bash\u0000npm test', 'é€😀', 'lone \ud800 surrogate', 'x'.repeat(100_000)];
    for (const t of texts) assert.equal(digest(t), sha(t));
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (t) => digest(t) === sha(t)), { numRuns: 500 });
    // enough text to pass the switch, then the same property again
    for (let i = 0; i < 8; i++) assert.equal(digest('y'.repeat(100_000) + i), sha('y'.repeat(100_000) + i));
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (t) => digest(t) === sha(t)), { numRuns: 500 });
  });
});
