import { statfsSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { type Check, ok, warn } from './check.ts';

// The hook's state is an append-only log that many hook processes write at once, which is safe only where
// an O_APPEND write is atomic: on a local disk. On NFS, SMB and the like, writers on two machines (or one
// client's cache) can interleave or lose lines, so the session's state can go wrong without any error.

/** statfs(2) f_type of the file systems that live on another machine (Linux's magic numbers). */
const NETWORK_FS: Record<number, string> = {
  0x6969: 'NFS',
  0x517b: 'SMB',
  0xff534d42: 'CIFS',
  0xfe534d42: 'SMB2',
  0x5346414f: 'AFS',
  0x73757245: 'Coda',
  0x01021997: '9P',
  0x00c36400: 'Ceph',
  0x0bd00bd0: 'Lustre',
  0x01161970: 'GFS2',
  0x7461636f: 'OCFS2',
  0x47504653: 'GPFS',
  0x65735546: 'FUSE (sshfs, a cloud drive, or another user-space file system)',
};

/** The name of the network file system with that statfs type, if it is one. */
export function networkFileSystem(type: number): string | undefined {
  return NETWORK_FS[type >>> 0];
}

export type FsTypeOf = (dir: string) => number;

const statfsType: FsTypeOf = (dir) => statfsSync(dir).type;

/** Folders likely to be on a local disk, in the order worth suggesting. */
function localCandidates(env: NodeJS.ProcessEnv): string[] {
  let user = 'user';
  try {
    user = userInfo().username;
  } catch {
    /* no passwd entry */
  }
  return [
    env.XDG_STATE_HOME ? join(env.XDG_STATE_HOME, 'stallguard') : '',
    join('/var/tmp', `stallguard-${user}`),
    join(tmpdir(), `stallguard-${user}`),
  ].filter(Boolean);
}

/** The nearest existing folder at or above `dir` (the one statfs can be asked about). */
function existing(dir: string, typeOf: FsTypeOf): number | undefined {
  for (let d = dir; ; d = join(d, '..')) {
    try {
      return typeOf(d);
    } catch {
      if (d === join(d, '..')) return undefined;
    }
  }
}

export function checkFileSystem(home: string, env: NodeJS.ProcessEnv, typeOf: FsTypeOf = statfsType): Check[] {
  const type = existing(home, typeOf);
  const fs = type === undefined ? undefined : networkFileSystem(type);
  if (!fs) return type === undefined ? [] : [ok('home', `${home} is on a local file system`)];
  const local = localCandidates(env).find((dir) => {
    const t = existing(dir, typeOf);
    return t !== undefined && !networkFileSystem(t);
  });
  const instead = local
    ? 'set STALLGUARD_HOME to a folder on a local disk, e.g. export ' +
      `STALLGUARD_HOME=${local} (in the environment the agent starts from)`
    : 'set STALLGUARD_HOME to a folder on a local disk (in the environment the agent starts from)';
  return [
    warn(
      'home',
      `${home} is on ${fs}, a network file system: appends from hooks running at once are ` +
        `not atomic there, so a session's state can lose or garble calls without an error`,
      instead,
    ),
  ];
}
