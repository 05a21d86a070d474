import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

// The hook is one short process per tool call, and loading node:crypto would cost it about 2 ms, more than
// all the hashing it does; so texts are hashed with a pure-JS sha256 (the very same digests). A process
// that hashes a lot (scan, replay, the daemon) switches to the native one, about 6x faster on long texts,
// once it has hashed enough for the switch to pay for itself.

const NATIVE_AFTER = 512 * 1024;
const encoder = new TextEncoder();
let hashed = 0;
let native: typeof import('node:crypto') | undefined;

/** A short, stable digest: 64 bits of sha256 are plenty to tell calls apart within one session. */
export function digest(text: string): string {
  if (native) return native.createHash('sha256').update(text).digest('hex').slice(0, 16);
  hashed += text.length;
  // getBuiltinModule loads node:crypto only now (Node 20.16+); without it the pure-JS hash carries on
  if (hashed > NATIVE_AFTER) native = process.getBuiltinModule?.('node:crypto');
  return bytesToHex(sha256(encoder.encode(text)).subarray(0, 8));
}
