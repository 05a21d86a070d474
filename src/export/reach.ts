import { connect } from 'node:net';
import { errnoText } from '../core/errno.ts';

// The OpenTelemetry exporters retry a refused connection with backoff for seconds before they give up;
// one TCP connect first tells a collector that is down (or a wrong port) at once.

/** Resolves once a TCP connection to the URL's host and port opens; rejects with what went wrong otherwise. */
export function reach(url: string, timeoutMs = 3000): Promise<void> {
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    const fail = (why: string) => {
      socket.destroy();
      reject(new Error(`cannot reach ${u.origin}: ${why}`));
    };
    socket.setTimeout(timeoutMs, () => fail(`no answer within ${timeoutMs / 1000} s`));
    socket.once('error', (e) => fail(errnoText(e)));
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
  });
}
