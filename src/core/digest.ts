import { sha256Hex } from './sha256.ts';

// The hook is one short process per tool call. The first native hash costs it about 1 ms (node:crypto
// set up on first use), while SHA-256 in JS (the very same digests) runs in V8's interpreter there, cheap
// for a short text and dearer with every KB: measured through the real hook, pair by pair with farm-bench,
// JS is about 10% of the whole hook faster for a 2 KB test output and native about 10% faster for a 3.5 KB
// file read. So texts under 3 KB are hashed in JS, and node:crypto is loaded the first time a longer text
// comes, or once a process has hashed enough for the load to pay for itself (scan, replay, the daemon), and
// used from then on.

const LONG = 3 * 1024;
const NATIVE_AFTER = 64 * 1024;
let hashed = 0;
let native: typeof import('node:crypto') | undefined;

/** A short, stable digest: 64 bits of sha256 are plenty to tell calls apart within one session. */
export function digest(text: string): string {
  // getBuiltinModule loads node:crypto only now (Node 20.16+); without it the JS hash carries on
  if (!native) {
    if (text.length < LONG) hashed += text.length;
    if (text.length >= LONG || hashed > NATIVE_AFTER) native = process.getBuiltinModule?.('node:crypto');
  }
  // crypto.hash (Node 20.12+, so wherever getBuiltinModule is) makes no Hash object: a scan's many small
  // digests cost half as much
  if (native) return native.hash('sha256', text, 'hex').slice(0, 16);
  return sha256Hex(text, 2);
}
