// The WebAssembly module of src/core/sha256-wasm.ts, assembled from its instructions: one function,
// compress(start, end), which runs SHA-256's rounds over the message's 64-byte blocks from start to end, the
// round constants, the schedule and the state at the addresses that module gives them. Its test checks that
// the bytes the module holds are these.

import { H_AT, K_AT, W_AT } from '../../src/core/sha256-wasm.ts';

/**
 * Bytes and instructions, nested as they are written and flattened once.
 */
type Code = number | Code[];

function flat(code: Code[]): number[] {
  return (code as unknown[]).flat(Number.POSITIVE_INFINITY) as number[];
}

/** Unsigned and signed LEB128, WebAssembly's integers. */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

// locals: the two parameters (the message's start and end), then the working variables
const P = 0;
const END = 1;
const A = 2;
const B = 3;
const C = 4;
const D = 5;
const E = 6;
const F = 7;
const G = 8;
const H = 9;
const I = 10;
const T1 = 11;
const X = 12;
const get = (l: number) => [0x20, l];
const set = (l: number) => [0x21, l];
const int = (n: number) => [0x41, sleb(n | 0)];
const add = 0x6a;
const and = 0x71;
const or = 0x72;
const xor = 0x73;
const shl = 0x74;
const shrU = 0x76;
const rotl = 0x77;
const rotr = 0x78;
const ltU = 0x49;
const geU = 0x4f;
const load = (offset: number) => [0x28, 2, uleb(offset)];
const store = (offset: number) => [0x36, 2, uleb(offset)];
const loop = [0x03, 0x40];
const block = [0x02, 0x40];
const end = 0x0b;
const brIf = (depth: number) => [0x0d, depth];
const br = (depth: number) => [0x0c, depth];
/** Word i's address, for a load or store at a table's offset. */
const at = (i: number) => [get(i), int(2), shl];
/** Σ and σ: three rotations (or two and a shift) of one word, xored. */
const sigma = (x: number, r1: number, r2: number, r3: number, shift = false) => [
  get(x),
  int(r1),
  rotr,
  get(x),
  int(r2),
  rotr,
  xor,
  get(x),
  int(r3),
  shift ? shrU : rotr,
  xor,
];
/** i += 1, and round the loop while i < n. */
const next = (n: number) => [get(I), int(1), add, set(I), get(I), int(n), ltU, brIf(0)];

/** The one function's instructions: compress(start, end), the message's blocks from start to end into the state. */
function compress(): Code {
  return [
    block,
    loop,
    [get(P), get(END), geU, brIf(1)],
    // the block's 16 words, big-endian: a little-endian load with its bytes swapped
    [int(0), set(I)],
    loop,
    [get(P), at(I), add, 0x28, 2, 0, set(X)],
    [at(I), get(X), int(8), rotl, int(0x00ff00ff), and, get(X), int(8), rotr, int(0xff00ff00), and],
    [or, store(W_AT)],
    next(16),
    end,
    // the other 48: w[i] = w[i-16] + σ0(w[i-15]) + w[i-7] + σ1(w[i-2])
    loop,
    at(I),
    [at(I), load(W_AT - 64), at(I), load(W_AT - 60), set(X), sigma(X, 7, 18, 3, true), add],
    [at(I), load(W_AT - 28), add, at(I), load(W_AT - 8), set(X), sigma(X, 17, 19, 10, true), add],
    store(W_AT),
    next(64),
    end,
    [A, B, C, D, E, F, G, H].map((l, k) => [int(0), load(H_AT + 4 * k), set(l)]),
    [int(0), set(I)],
    loop,
    // t1 = h + Σ1(e) + ch(e, f, g) + k[i] + w[i]
    [get(H), sigma(E, 6, 11, 25), add],
    [get(E), get(F), and, get(E), int(-1), xor, get(G), and, xor, add],
    [at(I), load(K_AT), add, at(I), load(W_AT), add, set(T1)],
    // the new a, t1 + Σ0(a) + maj(a, b, c), stays on the stack while the others move down a place
    [get(T1), sigma(A, 2, 13, 22), add],
    [get(A), get(B), and, get(A), get(C), and, xor, get(B), get(C), and, xor, add],
    [get(G), set(H), get(F), set(G), get(E), set(F), get(D), get(T1), add, set(E)],
    [get(C), set(D), get(B), set(C), get(A), set(B), set(A)],
    next(64),
    end,
    [A, B, C, D, E, F, G, H].map((l, k) => [int(0), int(0), load(H_AT + 4 * k), get(l), add, store(H_AT + 4 * k)]),
    [get(P), int(64), add, set(P)],
    br(0),
    end,
    end,
    end,
  ];
}

function section(id: number, ...parts: Code[]): Code {
  const body = flat(parts);
  return [id, uleb(body.length), body];
}

export function assemble(): Uint8Array {
  const name = (s: string) => [s.length, Array.from(s, (c) => c.charCodeAt(0))];
  const code = flat([1, 11, 0x7f, compress()]); // 11 more i32 locals, then the instructions
  return new Uint8Array(
    flat([
      [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      section(1, 1, 0x60, 2, 0x7f, 0x7f, 0), // one type: (i32, i32) -> ()
      section(3, 1, 0), // one function, of that type
      section(5, 1, 0, 1), // one memory, of one page to start with
      section(7, 2, name('c'), 0, 0, name('m'), 2, 0), // exported as c and m
      section(10, 1, uleb(code.length), code),
    ]),
  );
}
