import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';

/** The lines of a file, read in chunks so that a 1 GB history never sits in memory at once. */
export function* fileLines(file: string, chunkSize = 1 << 20, onBytes?: (bytes: number) => void): Generator<string> {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(chunkSize);
    const decoder = new StringDecoder('utf8');
    let rest = '';
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      onBytes?.(n);
      const parts = (rest + decoder.write(buf.subarray(0, n))).split('\n');
      rest = parts.pop() ?? '';
      yield* parts;
    }
    rest += decoder.end();
    if (rest.length > 0) yield rest;
  } finally {
    closeSync(fd);
  }
}
