import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { listenerIn, portHolder } from './port-holder.ts';

// Who holds the daemon's port, read from the kernel's table of sockets (Linux /proc/net/tcp and tcp6).

const HEAD = '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode';
// 127.0.0.1:28000 (0x6D60) listening, owned by uid 1001; a connection to it from 127.0.0.1:40000, owned by 1000
const REST = '00000000:00000000 00:00000000 00000000';
const TCP = [
  HEAD,
  `   0: 0100007F:6D60 00000000:0000 0A ${REST}  1001        0 12345 1 0000000000000000 100 0 0 10 0`,
  `   1: 0100007F:9C40 0100007F:6D60 01 ${REST}  1000        0 12346 1 0000000000000000 20 4 30 10 -1`,
].join('\n');

describe('who holds the port', () => {
  it('finds the listener on 127.0.0.1 or every address, not a connection that merely uses the port', () => {
    assert.equal(listenerIn(TCP, 28000), 1001);
    assert.equal(listenerIn(TCP, 40000), undefined, 'a connection is no listener');
    assert.equal(listenerIn(TCP.replace('0100007F:6D60 00000000', '00000000:6D60 00000000'), 28000), 1001);
    assert.equal(listenerIn(TCP.replace('0100007F:6D60 00000000', '0100000A:6D60 00000000'), 28000), undefined);
  });

  it('reads both tables, and says when the system has neither', () => {
    const any6 = '00000000000000000000000000000000';
    const six = `${HEAD}\n   0: ${any6}:6D60 ${any6}:0000 0A ${REST}   1002        0 1 1 0 100 0 0 10 0`;
    const tables: Record<string, string> = { '/proc/net/tcp': HEAD, '/proc/net/tcp6': six };
    assert.deepEqual(
      portHolder(28000, (f) => tables[f]!),
      { uid: 1002 },
    );
    assert.equal(
      portHolder(28001, (f) => tables[f]!),
      'none',
    );
    assert.equal(
      portHolder(28000, () => {
        throw new Error('ENOENT');
      }),
      undefined,
    );
  });
});
