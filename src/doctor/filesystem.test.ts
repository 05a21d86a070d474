import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { checkFileSystem, networkFileSystem } from './filesystem.ts';

// NFS cannot be mounted in a test: the file system's type is given, as statfs(2) would report it.

const EXT4 = 0xef53;
const NFS = 0x6969;

describe('doctor: STALLGUARD_HOME on a network file system', () => {
  it('knows the network file systems by their statfs type, and local ones as local', () => {
    assert.equal(networkFileSystem(NFS), 'NFS');
    assert.equal(networkFileSystem(0xff534d42), 'CIFS');
    assert.equal(networkFileSystem(-11317950), 'CIFS', 'a type read as a signed 32-bit number');
    for (const local of [
      EXT4,
      0x58465342 /* xfs */,
      0x9123683e /* btrfs */,
      0x01021994 /* tmpfs */,
      0x794c7630 /* overlayfs */,
    ])
      assert.equal(networkFileSystem(local), undefined);
  });

  it('warns on NFS, and says what to set instead: a folder on a local disk that exists here', () => {
    const typeOf = (dir: string) => (dir.startsWith('/home') ? NFS : EXT4);
    const [check] = checkFileSystem('/home/dev/.stallguard', { XDG_STATE_HOME: '/home/dev/.local/state' }, typeOf);
    assert.equal(check!.status, 'warn');
    assert.match(check!.detail, /\/home\/dev\/\.stallguard is on NFS, a network file system/);
    assert.match(
      check!.fix!,
      /^set STALLGUARD_HOME to a folder on a local disk, e\.g\. export STALLGUARD_HOME=\/var\/tmp\/stallguard-/,
    );
  });

  it('asks the nearest existing folder when STALLGUARD_HOME is not made yet', () => {
    const typeOf = (dir: string) => {
      if (dir === '/mnt/share' || dir === '/mnt') return dir === '/mnt/share' ? NFS : EXT4;
      if (dir.startsWith('/mnt/share/')) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return EXT4;
    };
    assert.equal(checkFileSystem('/mnt/share/new/.stallguard', {}, typeOf)[0]!.status, 'warn');
  });

  it('is quiet on a local disk', () => {
    assert.deepEqual(
      checkFileSystem('/home/dev/.stallguard', {}, () => EXT4).map((c) => c.status),
      ['ok'],
    );
  });
});
