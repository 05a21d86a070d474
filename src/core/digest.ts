import { sha256Hex } from './sha256.ts';
import { hasWasm, sha256WasmHex, wasmReady } from './sha256-wasm.ts';

// The hook is one short process per tool call, and each way to hash has a cost to set up there: SHA-256 in
// JS (sha256.ts) runs in V8's interpreter, cheap for a short text and dearer with every KB (about 1 ms for
// 2 KB, and a longer text sets off an optimising compile); its rounds in WebAssembly (sha256-wasm.ts) cost
// about half a millisecond to build, once, and then next to nothing a KB; node:crypto costs about 3 ms to
// load, and is the fastest for a process that hashes megabytes. So texts under 2 KB are hashed in JS, the
// first longer one builds the WebAssembly rounds, which hash every text from then on, and node:crypto is
// loaded once a process has hashed enough for the load to pay for itself (scan, replay, the daemon). The
// digests are the same whichever way.

const LONG = 2 * 1024;
const NATIVE_AFTER = 64 * 1024;
let hashed = 0;
let native: typeof import('node:crypto') | undefined;

/** A short, stable digest: 64 bits of sha256 are plenty to tell calls apart within one session. */
export function digest(text: string): string {
  // getBuiltinModule loads node:crypto only now (Node 20.16+); without it the other ways carry on
  if (!native) {
    hashed += text.length;
    if (hashed > NATIVE_AFTER) native = process.getBuiltinModule?.('node:crypto');
  }
  // crypto.hash (Node 20.12+, so wherever getBuiltinModule is) makes no Hash object: a scan's many small
  // digests cost half as much
  if (native) return native.hash('sha256', text, 'hex').slice(0, 16);
  if (hasWasm && (text.length >= LONG || wasmReady())) return sha256WasmHex(text, 2);
  return sha256Hex(text, 2);
}
