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
  // read into one buffer, grown when full, and decoded once: a payload fits in the first, and each copy or
  // concat is one more of node's functions compiled in a process that runs it once
  let buf = Buffer.allocUnsafe(64 * 1024);
  let size = 0;
  for (;;) {
    if (size === buf.length) {
      const bigger = Buffer.allocUnsafe(2 * buf.length);
      buf.copy(bigger, 0, 0, size);
      buf = bigger;
    }
    let n: number;
    try {
      n = readSync(0, buf, size, buf.length - size, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') break;
      if (code === 'EOF') return buf.toString('utf8', 0, size);
      throw e;
    }
    if (n === 0) return buf.toString('utf8', 0, size);
    size += n;
    if (size > limit) throw tooLarge(limit);
  }
  const chunks: Buffer[] = [buf.subarray(0, size)];
  for await (const chunk of process.stdin) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(b);
  }
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
