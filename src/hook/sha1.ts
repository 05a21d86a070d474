// SHA-1 (FIPS 180-4) of bytes, as git names a blob: the working-tree fingerprint asks whether a file that
// changed on disk still holds the content the index names, without loading node:crypto into the hook's
// cold process for the few small files that are usually in question. Written for V8's interpreter, where the
// hook runs it (rounds inline over local variables, no helper calls). Checked against node:crypto.

const w = new Int32Array(80);

/** The SHA-1 of `data`, as 40 hex digits. */
export function sha1Hex(data: Uint8Array): string {
  const n = data.length;
  const m = new Uint8Array((((n + 8) >> 6) + 1) * 64);
  m.set(data);
  m[n] = 0x80;
  const view = new DataView(m.buffer);
  view.setUint32(m.length - 8, Math.floor(n / 0x20000000));
  view.setUint32(m.length - 4, (n << 3) >>> 0);
  let h0 = 0x67452301 | 0,
    h1 = 0xefcdab89 | 0,
    h2 = 0x98badcfe | 0,
    h3 = 0x10325476 | 0,
    h4 = 0xc3d2e1f0 | 0;
  for (let off = 0; off < m.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getInt32(off + i * 4);
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = h0,
      b = h1,
      c = h2,
      d = h3,
      e = h4;
    for (let i = 0; i < 80; i++) {
      const f =
        i < 20
          ? ((b & c) | (~b & d)) + 0x5a827999
          : i < 40
            ? (b ^ c ^ d) + 0x6ed9eba1
            : i < 60
              ? ((b & c) | (b & d) | (c & d)) + 0x8f1bbcdc
              : (b ^ c ^ d) + 0xca62c1d6;
      const t = (((a << 5) | (a >>> 27)) + f + e + w[i]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
  }
  let hex = '';
  for (const h of [h0, h1, h2, h3, h4]) hex += (h >>> 0).toString(16).padStart(8, '0');
  return hex;
}
