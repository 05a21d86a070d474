import { closeSync, openSync, readSync } from 'node:fs';

/**
 * The lines of a file, read in chunks so that a 1 GB history never sits in memory at once. Each chunk is
 * cut at its last newline byte and decoded whole (a newline byte never occurs inside a multi-byte UTF-8
 * character); the unfinished line moves to the front of the buffer for the next read, which grows the
 * buffer when a single line is longer than it.
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
      const last = buf.lastIndexOf(10, end - 1);
      if (last < carry) {
        carry = end;
        continue;
      }
      yield* buf.toString('utf8', 0, last).split('\n');
      buf.copy(buf, 0, last + 1, end);
      carry = end - last - 1;
    }
    if (carry > 0) yield buf.toString('utf8', 0, carry);
  } finally {
    closeSync(fd);
  }
}
