import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import type { Hash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Event } from '../types.ts';
import { classify } from '../core/classify.ts';

// The working-tree fingerprint (HEAD, status, and the content of every changed file) tells a failing
// retry with nothing changed from one after a real fix, even when the fix was made by a shell command.
// It costs a git process, so it is taken only where a signal needs it: after a failing test or build run.
// node:child_process and node:crypto are loaded only then too (about 4 ms of start-up the other calls skip).

// process.getBuiltinModule is Node 20.16+; before it, the bundle's own require
const childProcess = () => process.getBuiltinModule?.('node:child_process') ?? (require('node:child_process') as typeof import('node:child_process'));
const crypto = () => process.getBuiltinModule?.('node:crypto') ?? (require('node:crypto') as typeof import('node:crypto'));

const MAX_FILES = 200;
const MAX_BYTES = 1 << 20;

function fileDigest(path: string, hash: Hash): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(64 * 1024);
    for (let total = 0; total < MAX_BYTES; ) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n <= 0) break;
      hash.update(buf.subarray(0, n));
      total += n;
    }
  } catch {
    hash.update('<unreadable>');
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function repoRoot(cwd: string): string | undefined {
  for (let dir = cwd, i = 0; i < 64; i++) {
    if (existsSync(join(dir, '.git'))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

export function treeFingerprint(cwd: string): string | undefined {
  const root = repoRoot(cwd);
  if (!root) return undefined;
  let status: string;
  try {
    status = childProcess().execFileSync('git', ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=normal'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 3000,
      maxBuffer: 8 << 20,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    });
  } catch {
    return undefined;
  }
  const hash = crypto().createHash('sha256').update(status);
  const entries = status.split('\0').filter((e) => e && !e.startsWith('#'));
  for (const entry of entries.slice(0, MAX_FILES)) {
    // v2 entries end with the path; renames carry the original path in the next NUL field, skipped here
    const path = entry.startsWith('? ') ? entry.slice(2) : entry.split(' ').slice(entry.startsWith('2 ') ? 9 : 8).join(' ');
    if (path) fileDigest(join(root, path), hash.update(path));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Adds the working-tree fingerprint to a failing verification run; every other event passes unchanged. */
export function attachTree(event: Event): Event {
  if (event.kind !== 'post-tool' || event.ok !== false || !event.cwd) return event;
  if (classify(event.call.name, event.call.input).cls !== 'test') return event;
  const tree = treeFingerprint(event.cwd);
  return tree ? { ...event, tree } : event;
}
