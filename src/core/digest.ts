import { codeUnits } from './code-units.ts';

// A digest tells two texts apart within one session: a call's key, an outcome, a file's place. It is never
// checked against anything outside stallguard, and the texts it is taken of are redacted first, so it need not
// be cryptographic; it must be cheap in the hook's cold process, where V8 runs each function in its
// interpreter. SHA-256 cost 0.4 ms for the first short text there and 0.9 ms for a 3.5 KB file (in
// WebAssembly past 2 KB: its module built, once, and its first call compiled), about a third of what a Read's
// result added to a node start; this walk costs a tenth of that, and as much as node:crypto in a long scan.
//
// Each step takes two UTF-16 code units as one 32-bit word (no UTF-8 encoding; read from a copy, as the other
// loops over a text's characters read it: code-units.ts) into two lanes, each an xor then a multiply by an odd
// constant: a multiply by an odd number is a bijection of 32-bit words, so two texts of one length that differ
// in one word always end in different lanes. The lanes have different
// multipliers and starts, and a final avalanche (the finaliser of MurmurHash3) mixes each into the other, so
// the 64 bits are spent on telling texts apart; a test holds a million near-identical texts to no collision,
// where 32 bits of strength would show about a hundred.

const A_START = 0x9e3779b1;
const B_START = 0x85ebca77;
const A_TIMES = 0x9e3779b1;
const B_TIMES = 0x85ebca77;

function avalanche(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return h ^ (h >>> 16);
}

const hex8 = (h: number) => (h >>> 0).toString(16).padStart(8, '0');

/** A short, stable digest of a text: 64 bits, as 16 hex digits. */
export function digest(text: string): string {
  const n = text.length;
  const units = codeUnits(text);
  let a = A_START ^ n;
  let b = B_START ^ n;
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const word = units[i]! | (units[i + 1]! << 16);
    a = Math.imul(a ^ word, A_TIMES);
    b = Math.imul(b ^ word, B_TIMES);
  }
  if (i < n) {
    const unit = units[i]!;
    a = Math.imul(a ^ unit, A_TIMES);
    b = Math.imul(b ^ unit, B_TIMES);
  }
  a = avalanche(a);
  b = avalanche(b ^ a);
  return hex8(a ^ b) + hex8(b);
}
