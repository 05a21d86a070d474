import { readFileSync } from 'node:fs';

// Who holds the daemon's port on 127.0.0.1, where the system says (Linux: /proc/net/tcp and tcp6, which
// name the owner of every listening socket). A port held by another user's program is the squatting the
// threat model describes: Claude Code's http hook would send that program every payload.

/** A listening socket's owner, 'none' when nothing listens there, undefined when the system does not say. */
export type PortHolder = { uid: number } | 'none' | undefined;

const LISTEN = '0A';
/** Local addresses whose listener takes 127.0.0.1:port: 127.0.0.1, 0.0.0.0, and IPv6 :: and ::ffff:127.0.0.1. */
const COVERS = new Set([
  '0100007F',
  '00000000',
  '00000000000000000000000000000000',
  '0000000000000000FFFF00000100007F',
]);

/** The owner of the listener on `port` in the text of /proc/net/tcp or tcp6, if any. */
export function listenerIn(table: string, port: number): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    const [address, p] = (f[1] ?? '').split(':');
    if (f[3] === LISTEN && p === hexPort && COVERS.has(address ?? '')) return Number(f[7]);
  }
  return undefined;
}

export function portHolder(port: number, read = (f: string) => readFileSync(f, 'utf8')): PortHolder {
  let known = false;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let table: string;
    try {
      table = read(file);
    } catch {
      continue;
    }
    known = true;
    const uid = listenerIn(table, port);
    if (uid !== undefined) return { uid };
  }
  return known ? 'none' : undefined;
}

/** Whether the port is held by a program of another user than this one. */
export function heldByOther(holder: PortHolder, uid = process.getuid?.()): holder is { uid: number } {
  return typeof holder === 'object' && uid !== undefined && holder.uid !== uid;
}
