import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

// The hook is one short process per tool call. Loading node:crypto costs it about 2.5 ms, while a pure-JS
// sha256 (the very same digests) costs little on short texts but about 0.7 ms per KB in a cold process,
// where it runs in V8's interpreter. So short texts (keys, paths, most outcomes of a pre-tool check) are
// hashed in JS, and node:crypto is loaded the first time a long text comes, or once a process has hashed
// enough for the load to pay for itself (scan, replay, the daemon), and used from then on.

const LONG = 4096;
const NATIVE_AFTER = 64 * 1024;
const encoder = new TextEncoder();
let hashed = 0;
let native: typeof import('node:crypto') | undefined;

/** A short, stable digest: 64 bits of sha256 are plenty to tell calls apart within one session. */
export function digest(text: string): string {
  // getBuiltinModule loads node:crypto only now (Node 20.16+); without it the pure-JS hash carries on
  if (!native && (text.length >= LONG || (hashed += text.length) > NATIVE_AFTER)) native = process.getBuiltinModule?.('node:crypto');
  if (native) return native.createHash('sha256').update(text).digest('hex').slice(0, 16);
  return bytesToHex(sha256(encoder.encode(text)).subarray(0, 8));
}
