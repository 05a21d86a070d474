import {
  closeSync,
  type Dirent,
  type Stats,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { sha1Hex } from './sha1.ts';

// What `git status` reports, read from git's own files instead of starting git (a process costs the hook
// about a quarter of a node start): HEAD, the index (what is staged), which tracked files changed on disk
// since (by their stat, and where that changed, by their content against the blob the index names, as git
// does), and the names of untracked files and folders beside tracked ones (what `--untracked-files=normal`
// lists, ignored names included: .gitignore is not read, so an ignored file that appears or goes counts as
// a change). Undefined for what is not read here: a split or sparse index, SHA-256 objects, an index
// version past 4, more than MAX_ENTRIES tracked files; the fingerprint then asks git.

export const MAX_ENTRIES = 2000;
const MAX_DIRS = 400;
const MAX_UNTRACKED = 2000;

export interface Budget {
  /** Changed files whose content may still be read, and bytes. */
  files: number;
  bytes: number;
  /** A file larger than this is taken as changed, by its size and time, without reading it. */
  fileCap: number;
}

interface Entry {
  path: string;
  mode: number;
  size: number;
  mtimeS: number;
  mtimeNs: number;
  ino: number;
  oid: string;
  stage: number;
  /** assume-unchanged or skip-worktree: git does not look at the file. */
  skip: boolean;
}

/** Where a work tree's git files are: its own (HEAD, index) and the shared ones (refs), for a linked worktree apart. */
function gitDirs(root: string): { git: string; common: string } | undefined {
  const dot = join(root, '.git');
  let git = dot;
  if (!lstatSync(dot).isDirectory()) {
    const m = /^gitdir: (.+)$/m.exec(readFileSync(dot, 'utf8'));
    if (!m) return undefined;
    git = resolve(root, m[1]!.trim());
  }
  let common = git;
  try {
    common = resolve(git, readFileSync(join(git, 'commondir'), 'utf8').trim());
  } catch {
    /* not a linked worktree */
  }
  return { git, common };
}

/** HEAD and the commit it names: the branch's loose ref, else its line in packed-refs. */
function head(dirs: { git: string; common: string }): string {
  const text = readFileSync(join(dirs.git, 'HEAD'), 'utf8').trim();
  const ref = /^ref: (\S+)$/.exec(text)?.[1];
  if (!ref) return text;
  try {
    return `${text} ${readFileSync(join(dirs.common, ref), 'utf8').trim()}`;
  } catch {
    let packed = '';
    try {
      packed = readFileSync(join(dirs.common, 'packed-refs'), 'utf8');
    } catch {
      /* a branch with no commit yet */
    }
    const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
    return `${text} ${line?.split(' ')[0] ?? ''}`;
  }
}

/** FNV-1a over bytes, two lanes of 32 bits: what the index holds besides stat data, cheaply told apart. */
function fnv(lanes: Uint32Array, data: Uint8Array, from: number, to: number): void {
  let a = lanes[0]!;
  let b = lanes[1]!;
  for (let i = from; i < to; i++) {
    a = Math.imul(a ^ data[i]!, 0x01000193);
    b = Math.imul(b ^ data[i]!, 0x01000193) ^ (a >>> 7);
  }
  lanes[0] = a >>> 0;
  lanes[1] = b >>> 0;
}

/** The entries of an index file (versions 2 to 4) and a digest of what they name; undefined for a form not read. */
function readIndex(buf: Buffer): { entries: Entry[]; digest: string } | undefined {
  if (buf.length < 12 || buf.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = buf.readUInt32BE(4);
  const count = buf.readUInt32BE(8);
  if (version < 2 || version > 4 || count > MAX_ENTRIES) return undefined;
  const entries: Entry[] = [];
  const lanes = new Uint32Array([0x811c9dc5, 0x050c5d1f]);
  let at = 12;
  let previous = '';
  for (let i = 0; i < count; i++) {
    if (at + 62 > buf.length) return undefined;
    const flags = buf.readUInt16BE(at + 60);
    const extended = version >= 3 && (flags & 0x4000) !== 0;
    const extra = extended ? buf.readUInt16BE(at + 62) : 0;
    const nameAt = at + 62 + (extended ? 2 : 0);
    let path: string;
    let end: number;
    if (version === 4) {
      // the path as a number of bytes to drop from the end of the previous one, and the rest after
      let p = nameAt;
      let byte = buf[p++]!;
      let drop = byte & 127;
      while (byte & 128) {
        byte = buf[p++]!;
        drop = ((drop + 1) << 7) | (byte & 127);
      }
      const nul = buf.indexOf(0, p);
      if (nul === -1) return undefined;
      path = previous.slice(0, previous.length - drop) + buf.toString('utf8', p, nul);
      end = nul + 1;
    } else {
      const nul = buf.indexOf(0, nameAt);
      if (nul === -1) return undefined;
      path = buf.toString('utf8', nameAt, nul);
      end = at + Math.ceil((nul + 1 - at) / 8) * 8;
    }
    fnv(lanes, buf, at + 24, at + 28); // mode
    fnv(lanes, buf, at + 40, at + 62); // object id, flags (stage, name length)
    fnv(lanes, buf, nameAt, end); // path
    entries.push({
      path,
      mode: buf.readUInt32BE(at + 24),
      size: buf.readUInt32BE(at + 36),
      mtimeS: buf.readUInt32BE(at + 8),
      mtimeNs: buf.readUInt32BE(at + 12),
      ino: buf.readUInt32BE(at + 20),
      oid: buf.toString('hex', at + 40, at + 60),
      stage: (flags >> 12) & 3,
      skip: (flags & 0x8000) !== 0 || (extra & 0x4000) !== 0,
    });
    previous = path;
    at = end;
  }
  // extensions: a split index keeps its entries elsewhere, a sparse one folds folders into one entry
  while (at + 8 <= buf.length - 20) {
    const signature = buf.toString('latin1', at, at + 4);
    if (signature === 'link' || signature === 'sdir') return undefined;
    at += 8 + buf.readUInt32BE(at + 4);
  }
  return { entries, digest: lanes[0]!.toString(16) + lanes[1]!.toString(16) };
}

/** git's name of a blob: the SHA-1 of its header and content. */
function blobId(content: Buffer): string {
  const header = Buffer.from(`blob ${content.length}\0`);
  return sha1Hex(Buffer.concat([header, content]));
}

function readWhole(path: string, size: number): Buffer {
  const buf = Buffer.alloc(size);
  const fd = openSync(path, 'r');
  try {
    for (let got = 0; got < size; ) {
      const n = readSync(fd, buf, got, size - got, got);
      if (n <= 0) return buf.subarray(0, got);
      got += n;
    }
  } finally {
    closeSync(fd);
  }
  return buf;
}

/** What a file holds, as git names it, within the budget; past it, its size and time. */
function contentOf(file: string, st: Stats, budget: Budget): string {
  if (st.size > budget.fileCap || budget.files <= 0 || st.size > budget.bytes) return `${st.size} ${st.mtimeMs}`;
  budget.files--;
  budget.bytes -= st.size;
  return blobId(st.isSymbolicLink() ? Buffer.from(readlinkSync(file)) : readWhole(file, st.size));
}

/** What changed of one tracked file on disk: nothing (undefined), gone, or what it holds now. */
function changeOf(root: string, e: Entry, indexMtimeMs: number, budget: Budget): string | undefined {
  if (e.skip || e.mode === 0o160000) return undefined; // skipped by git, or a submodule's commit
  const file = join(root, e.path);
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch {
    return 'gone';
  }
  const link = st.isSymbolicLink();
  if (!link && !st.isFile()) return 'not a file';
  const executable = link ? false : (st.mode & 0o100) !== 0;
  if (e.mode !== (link ? 0o120000 : executable ? 0o100755 : 0o100644)) return `mode ${st.mode}`;
  const mtimeS = Math.floor(st.mtimeMs / 1000);
  const sameStat =
    st.size === e.size &&
    mtimeS === e.mtimeS &&
    Math.abs((st.mtimeMs - mtimeS * 1000) * 1e6 - e.mtimeNs) < 1000 &&
    (e.ino === 0 || e.ino === st.ino % 2 ** 32);
  // racily clean: written in the same instant the index was, its stat proves nothing (git looks too)
  if (sameStat && st.mtimeMs < indexMtimeMs) return undefined;
  const now = contentOf(file, st, budget);
  return now === e.oid ? undefined : now;
}

/** Whether a folder holds a file at some depth: git lists an untracked folder only then. */
function holdsFile(dir: string, looked = { n: 0 }): boolean {
  let names: Dirent[];
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return false;
  }
  for (const d of names) {
    if (++looked.n > MAX_UNTRACKED) return true; // too deep to look through: counted as it is
    if (!d.isDirectory() || holdsFile(join(dir, d.name), looked)) return true;
  }
  return false;
}

/** The lines of the fingerprint, from git's files; undefined where git is to be asked instead. */
export function gitState(root: string, budget: Budget): string[] | undefined {
  const dirs = gitDirs(root);
  if (!dirs) return undefined;
  const config = readFileSync(join(dirs.common, 'config'), 'utf8');
  if (config.includes('sha256') && /^\s*objectformat\s*=\s*sha256/im.test(config)) return undefined;
  let index: { entries: Entry[]; digest: string } | undefined = { entries: [], digest: '' };
  let indexMtimeMs = 0;
  try {
    const file = join(dirs.git, 'index');
    indexMtimeMs = lstatSync(file).mtimeMs;
    index = readIndex(readFileSync(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e; // no index: nothing added yet
  }
  if (!index) return undefined;
  const lines = [`HEAD ${head(dirs)}`, `index ${index.digest}`];
  const tracked = new Set<string>();
  const folders = new Set<string>(['']);
  for (const e of index.entries) {
    tracked.add(e.path);
    for (let i = e.path.indexOf('/'); i !== -1; i = e.path.indexOf('/', i + 1)) folders.add(e.path.slice(0, i));
    const change = e.stage === 0 ? changeOf(root, e, indexMtimeMs, budget) : undefined;
    if (change !== undefined) lines.push(`M ${e.path} ${change}`);
  }
  if (folders.size > MAX_DIRS) return undefined;
  const untracked: string[] = [];
  for (const folder of folders) {
    let names: Dirent[];
    try {
      names = readdirSync(join(root, folder), { withFileTypes: true });
    } catch {
      continue; // a folder of tracked files that is gone: its files are
    }
    for (const d of names) {
      const rel = folder ? `${folder}/${d.name}` : d.name;
      if ((folder === '' && d.name === '.git') || tracked.has(rel) || folders.has(rel)) continue;
      const path = join(root, rel);
      if (d.isDirectory()) {
        if (holdsFile(path)) untracked.push(`? ${rel}/`);
      } else if (d.isFile() || d.isSymbolicLink())
        untracked.push(`? ${rel} ${contentOf(path, lstatSync(path), budget)}`);
      else untracked.push(`? ${rel} special`);
    }
    if (untracked.length > MAX_UNTRACKED) return undefined;
  }
  return [...lines, ...untracked.sort()];
}
