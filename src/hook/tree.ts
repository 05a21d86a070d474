import { closeSync, existsSync, lstatSync, openSync, readSync } from 'node:fs';
import type { Hash } from 'node:crypto';
import { dirname, join } from 'node:path';
import type { Event } from '../types.ts';
import { classify } from '../core/classify.ts';
import { digest } from '../core/digest.ts';
import { gitState } from './git-files.ts';

// The working-tree fingerprint (HEAD, status, and the state of every changed file) tells a failing retry
// with nothing changed from one after a real fix, even when the fix was made by a shell command. It is
// taken only where a signal needs it, after a failing test or build run. In a repository of up to
// MAX_ENTRIES tracked files it is read from git's own files, with no process started (git-files.ts);
// past that, or where those files take a form not read there, one git process answers, with a timeout.
// Either way its cost is bounded however large the repository: at most MAX_STAT changed files looked at,
// at most MAX_READ of them read, and at most CONTENT_BUDGET bytes; past that, a file counts by its size
// and modification time (and past MAX_STAT, by its line in the status alone).

// node:child_process and node:crypto are loaded only for git's answer, in a large repository: the other
// calls skip their start-up cost. process.getBuiltinModule is Node 20.16+; before it, the bundle's own require.
const childProcess = () =>
  process.getBuiltinModule?.('node:child_process') ??
  (require('node:child_process') as typeof import('node:child_process'));
const crypto = () =>
  process.getBuiltinModule?.('node:crypto') ?? (require('node:crypto') as typeof import('node:crypto'));

const MAX_STAT = 5000;
const MAX_READ = 200;
export const CONTENT_BUDGET = 4 << 20;
/** A file larger than this counts by size and time: reading it whole would spend the budget on one file. */
export const FILE_CAP = 1 << 20;
export const GIT_TIMEOUT_MS = 2000;

export interface Changed {
  path: string;
  size: number;
  mtimeMs: number;
}

/** Which changed files are read whole, in order, within the limits; the others count by size and time. */
export function plan(files: Changed[], budget = CONTENT_BUDGET): { read: Changed[]; stat: Changed[] } {
  const read: Changed[] = [];
  const stat: Changed[] = [];
  let left = budget;
  for (const f of files) {
    if (read.length < MAX_READ && f.size <= FILE_CAP && f.size <= left) {
      read.push(f);
      left -= f.size;
    } else stat.push(f);
  }
  return { read, stat };
}

function hashContent(path: string, size: number, hash: Hash): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(Math.min(size, 64 * 1024) || 1);
    // never past the size planned for: a file that grew since counts only up to it
    for (let total = 0; total < size; ) {
      const n = readSync(fd, buf, 0, Math.min(buf.length, size - total), null);
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

/** The top of the git work tree holding `cwd`, if any. */
export function repoRoot(cwd: string): string | undefined {
  for (let dir = cwd, i = 0; i < 64; i++) {
    if (existsSync(join(dir, '.git'))) return dir;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

/** The paths in `git status --porcelain=v2 -z` output: ordinary, renamed (its new path) and untracked entries. */
export function statusPaths(status: string): string[] {
  const fields = status.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const e = fields[i]!;
    if (e.startsWith('? ')) paths.push(e.slice(2));
    else if (e.startsWith('1 ')) paths.push(e.split(' ').slice(8).join(' '));
    else if (e.startsWith('u ')) paths.push(e.split(' ').slice(10).join(' '));
    else if (e.startsWith('2 ')) {
      paths.push(e.split(' ').slice(9).join(' '));
      i++; // the original path follows in its own field
    }
  }
  return paths.filter((p) => p.length > 0);
}

export function treeFingerprint(cwd: string): string | undefined {
  const root = repoRoot(cwd);
  if (!root) return undefined;
  let lines: string[] | undefined;
  try {
    lines = gitState(root, { files: MAX_READ, bytes: CONTENT_BUDGET, fileCap: FILE_CAP });
  } catch {
    lines = undefined; // a git file that cannot be read as expected: git itself may
  }
  return lines ? digest(lines.join('\n')) : fingerprintWithGit(root);
}

/** The fingerprint from `git status` and the changed files it lists. */
export function fingerprintWithGit(root: string): string | undefined {
  let status: string;
  try {
    status = childProcess().execFileSync(
      'git',
      ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=normal'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: GIT_TIMEOUT_MS,
        killSignal: 'SIGKILL',
        maxBuffer: 8 << 20,
        stdio: ['ignore', 'pipe', 'ignore'],
        // no index.lock taken (a rebase or another git in progress is left alone), no pager, no prompt
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
      },
    );
  } catch {
    return undefined;
  }
  const hash = crypto().createHash('sha256').update(status);
  const files: Changed[] = [];
  for (const path of statusPaths(status).slice(0, MAX_STAT)) {
    try {
      const st = lstatSync(join(root, path));
      files.push({ path, size: st.isFile() ? st.size : 0, mtimeMs: st.mtimeMs });
    } catch {
      hash.update(`${path}\0<gone>`);
    }
  }
  const { read, stat } = plan(files);
  for (const f of read) hashContent(join(root, f.path), f.size, hash.update(`${f.path}\0`));
  for (const f of stat) hash.update(`${f.path}\0${f.size}\0${f.mtimeMs}`);
  return hash.digest('hex').slice(0, 16);
}

/** Adds the working-tree fingerprint to a failing verification run; every other event passes unchanged. */
export function attachTree(event: Event): Event {
  if (event.kind !== 'post-tool' || event.ok !== false || !event.cwd) return event;
  if (classify(event.call, event.facts).cls !== 'test') return event;
  const tree = treeFingerprint(event.cwd);
  return tree ? { ...event, tree } : event;
}
