import { fstatSync, readSync, writeSync } from 'node:fs';

// All of stdin. Read synchronously first: process.stdin would load node's stream and socket machinery,
// about 2 ms of every hook's start. A pipe that is in non-blocking mode (the agent's choice, not ours)
// answers a synchronous read that comes before the data with EAGAIN; then the rest is read the
// asynchronous way, so no event is ever dropped.

function tooLarge(limit: number): Error {
  return new Error(`stdin is larger than ${limit} bytes`);
}

/**
 * Whether fd 0 is a terminal (or /dev/null): nothing to read.
 * Asked of the fd, since process.stdin would load the streams.
 */
function noInput(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return true; // no fd 0 at all
  }
}

export async function readStdin(limit = 64 << 20): Promise<string> {
  if (noInput()) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  const buf = Buffer.allocUnsafe(64 * 1024);
  for (;;) {
    let n: number;
    try {
      n = readSync(0, buf, 0, buf.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') break;
      if (code === 'EOF') return finish(chunks);
      throw e;
    }
    if (n === 0) return finish(chunks);
    size += n;
    if (size > limit) throw tooLarge(limit);
    chunks.push(Buffer.from(buf.subarray(0, n)));
  }
  for await (const chunk of process.stdin) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(b);
  }
  return finish(chunks);
}

function finish(chunks: Buffer[]): string {
  return Buffer.concat(chunks).toString('utf8');
}

/** Writes all of `text` to stdout with write(2), retrying a full non-blocking pipe, without loading process.stdout. */
export function writeStdout(text: string): void {
  const data = Buffer.from(text, 'utf8');
  for (let off = 0; off < data.length; ) {
    try {
      off += writeSync(1, data, off, data.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
    }
  }
}
