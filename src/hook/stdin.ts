/**
 * All of stdin. Read asynchronously: a synchronous read of a pipe whose writer has not written yet fails
 * with EAGAIN under load, which would silently drop the event.
 */
export async function readStdin(limit = 64 << 20): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const b = chunk as Buffer;
    size += b.length;
    if (size > limit) throw new Error(`stdin is larger than ${limit} bytes`);
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}
