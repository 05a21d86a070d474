// SHA-256 (FIPS 180-4) of a string's UTF-8 bytes, its rounds in WebAssembly. A cold hook process runs JS in
// V8's interpreter, where sha256.ts costs about 1 ms a 2 KB text and sets off an optimising compile on
// another thread past that, and node:crypto costs 3 ms to load (it loads node's streams); a module of one
// function, compiled by V8's baseline WebAssembly compiler, costs about half a millisecond once a process
// and then hashes a KB in microseconds. Its bytes are assembled from its instructions, written one
// expression a line, by test/support/sha256-asm.ts, and checked there: held here as they are, they cost a
// hook process nothing to make (assembling them cost it a fraction of a millisecond, 100 KB of heap, and
// the assembler's bytecode in the code cache). Where WebAssembly is missing (node --jitless), texts go to
// the JS rounds.

import { K, INITIAL } from './sha256.ts';

// memory: the round constants, the message schedule, the state, then the padded message
export const K_AT = 0;
export const W_AT = 256;
export const H_AT = 512;
const MESSAGE_AT = 1024;
const PAGE = 65536;

/** The module: compress(start, end) exported as c, its memory as m (test/support/sha256-asm.ts). */
export const MODULE =
  '0061736d0100000001060160027f7f0003020100050301000107090201630000016d02000a9504019204010b7f02400340200020014f' +
  '0d014100210a03402000200a4102746a280200210c200a410274200c41087741ff81fc0771200c4108784180fe837871723602800220' +
  '0a41016a210a200a4110490d000b0340200a410274200a4102742802c001200a4102742802c401210c200c410778200c41127873200c' +
  '410376736a200a4102742802e4016a200a4102742802f801210c200c411178200c41137873200c410a76736a36028002200a41016a21' +
  '0a200a41c000490d000b410028028004210241002802840421034100280288042104410028028c042105410028029004210641002802' +
  '940421074100280298042108410028029c0421094100210a0340200920064106782006410b78732006411978736a2006200771200641' +
  '7f73200871736a200a4102742802006a200a410274280280026a210b200b20024102782002410d78732002411678736a200220037120' +
  '02200471732003200471736a2008210920072108200621072005200b6a21062004210520032104200221032102200a41016a210a200a' +
  '41c000490d000b410041002802800420026a36028004410041002802840420036a36028404410041002802880420046a360288044100' +
  '410028028c0420056a36028c04410041002802900420066a36029004410041002802940420076a36029404410041002802980420086a' +
  '360298044100410028029c0420096a36029c04200041c0006a21000c000b0b0b';

/** What is used of WebAssembly, whose types come with the DOM library (not this project's). */
interface Memory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
declare const WebAssembly:
  | {
      Module: new (bytes: Uint8Array) => object;
      Instance: new (module: object) => { exports: Record<string, unknown> };
    }
  | undefined;

interface Rounds {
  compress: (start: number, end: number) => void;
  memory: Memory;
}

let rounds: Rounds | undefined;
const encoder = new TextEncoder();

function instantiate(): Rounds {
  const wasm = WebAssembly!;
  const { exports } = new wasm.Instance(new wasm.Module(Buffer.from(MODULE, 'hex')));
  const memory = exports.m as Memory;
  new Int32Array(memory.buffer, K_AT, 64).set(K);
  return { compress: exports.c as Rounds['compress'], memory };
}

/** Whether WebAssembly is there to hash with. */
export const hasWasm = typeof WebAssembly === 'object';

/** Whether the module is built already: from then on each hash is the cheaper there, whatever its length. */
export function wasmReady(): boolean {
  return rounds !== undefined;
}

/** The first `words` 32-bit words of the SHA-256 of `text` (UTF-8), as hex: the same as sha256Hex. */
export function sha256WasmHex(text: string, words = 8): string {
  if (!rounds) rounds = instantiate();
  const r = rounds;
  // room for the text's UTF-8 (3 bytes at most a UTF-16 unit), its padding and length
  const room = MESSAGE_AT + text.length * 3 + 72;
  if (r.memory.buffer.byteLength < room) r.memory.grow(Math.ceil((room - r.memory.buffer.byteLength) / PAGE));
  const bytes = new Uint8Array(r.memory.buffer);
  const n = encoder.encodeInto(text, bytes.subarray(MESSAGE_AT)).written;
  const length = (((n + 8) >> 6) + 1) * 64;
  bytes.fill(0, MESSAGE_AT + n, MESSAGE_AT + length);
  bytes[MESSAGE_AT + n] = 0x80;
  const view = new DataView(r.memory.buffer);
  view.setUint32(MESSAGE_AT + length - 8, Math.floor(n / 0x20000000));
  view.setUint32(MESSAGE_AT + length - 4, (n << 3) >>> 0);
  const state = new Int32Array(r.memory.buffer, H_AT, 8);
  state.set(INITIAL);
  r.compress(MESSAGE_AT, MESSAGE_AT + length);
  return Array.from(state.subarray(0, words), (x) => (x >>> 0).toString(16).padStart(8, '0')).join('');
}
