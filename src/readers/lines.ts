import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The lines of a file, read in chunks so that a 1 GB history never sits in memory at once. Each line is
 * decoded on its own, from the bytes between two newline bytes (a newline byte never occurs inside a
 * multi-byte UTF-8 character): a line of ASCII becomes a string of one byte a character, though the chunk
 * holds other characters, and JSON.parse reads it faster; no string of the whole chunk is made to be cut
 * up. The unfinished line moves to the front of the buffer for the next read, which grows the buffer when
 * a single line is longer than it.
 */
export function* fileLines(file: string, chunkSize = 1 << 20, onBytes?: (bytes: number) => void): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    let buf = Buffer.allocUnsafe(chunkSize);
    let carry = 0;
    for (;;) {
      if (carry === buf.length) {
        const bigger = Buffer.allocUnsafe(buf.length * 2);
        buf.copy(bigger, 0, 0, carry);
        buf = bigger;
      }
      const n = readSync(fd, buf, carry, buf.length - carry, null);
      if (n === 0) break;
      onBytes?.(n);
      const end = carry + n;
      let start = 0;
      // the bytes before `carry` were searched already; those past `end` are left from earlier reads
      for (let nl = buf.indexOf(10, carry); nl !== -1 && nl < end; nl = buf.indexOf(10, start)) {
        yield buf.toString('utf8', start, nl);
        start = nl + 1;
      }
      buf.copy(buf, 0, start, end);
      carry = end - start;
    }
    if (carry > 0) yield buf.toString('utf8', 0, carry);
  } finally {
    closeSync(fd);
  }
}
