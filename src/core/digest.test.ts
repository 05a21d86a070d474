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
    // short texts only, first: the pure-JS hash
    const texts = ['', 'a', 'Bash\u0000npm test', 'é€😀', 'lone \ud800 surrogate', 'z'.repeat(4000)];
    for (const t of texts) assert.equal(digest(t), sha(t));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (t) => digest(t) === sha(t)),
      { numRuns: 100 },
    );
    // a long text makes the switch, then the same property again
    assert.equal(digest('x'.repeat(100_000)), sha('x'.repeat(100_000)));
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (t) => digest(t) === sha(t)),
      { numRuns: 500 },
    );
  });
});
