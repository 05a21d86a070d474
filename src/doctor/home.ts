import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  statfsSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { SESSIONS_DIR } from '../store/paths.ts';
import { parseLine } from '../store/session-log.ts';
import { isSessionName } from '../store/segments.ts';
import { fileLines } from '../readers/lines.ts';
import { errnoText } from '../core/errno.ts';
import { type Check, fail, ok, warn } from './check.ts';

// STALLGUARD_HOME: can the hook write there (a probe the size of a checkpoint, synced, then removed),
// is there room, is it private, and are the session files in it what the hook expects.

const PROBE = 64 * 1024;
const LOW_SPACE = 16 << 20;

function probe(home: string): void {
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const file = join(home, `.doctor-${process.pid}`);
  const fd = openSync(file, 'wx', 0o600);
  try {
    const n = writeSync(fd, Buffer.alloc(PROBE, 0x20));
    if (n !== PROBE) throw Object.assign(new Error('short write'), { code: 'ENOSPC' });
    fsyncSync(fd);
  } finally {
    closeSync(fd);
    unlinkSync(file);
  }
}

export function checkHome(home: string): Check[] {
  try {
    const st = statSync(home, { throwIfNoEntry: false });
    if (st && !st.isDirectory())
      return [fail('home', `${home} is not a folder`, `move it aside, or set STALLGUARD_HOME to a folder`)];
    probe(home);
  } catch (e) {
    const why = errnoText(e);
    const fix = /full|quota/.test(why)
      ? `free some space on the disk that holds ${home}`
      : `make ${home} writable by this user, or set STALLGUARD_HOME to a folder that is`;
    return [fail('home', `${home} cannot be written: ${why}; the hook allows every call and records nothing`, fix)];
  }
  const out: Check[] = [];
  const sessions = join(home, SESSIONS_DIR);
  let names: string[] = [];
  try {
    names = readdirSync(sessions);
  } catch {
    /* no session yet */
  }
  out.push(ok('home', `${home} is writable (${names.filter(isSessionName).length} sessions)`));
  try {
    const free = statfsSync(home);
    const bytes = free.bavail * free.bsize;
    if (bytes < LOW_SPACE)
      out.push(
        warn(
          'home',
          `only ${Math.round(bytes / 1024)} KB free on the disk that holds ${home}`,
          'free some space: when the disk fills up the hook records nothing',
        ),
      );
  } catch {
    /* statfs is not available everywhere */
  }
  const loose = [home, sessions].filter((d) => (statSync(d, { throwIfNoEntry: false })?.mode ?? 0) & 0o077);
  if (loose.length > 0)
    out.push(
      warn('home', `${loose.join(' and ')} can be read by other users of this machine`, `chmod 700 ${loose.join(' ')}`),
    );
  const looseFiles: string[] = [];
  for (const name of names) {
    const file = join(sessions, name);
    const st = statSync(file, { throwIfNoEntry: false });
    if (!st) continue;
    if (!st.isFile()) {
      out.push(
        fail(
          'home',
          `${file} is not a file: the hook cannot record that session`,
          `move it aside: mv ${file} ${file}.bad`,
        ),
      );
      continue;
    }
    if (st.mode & 0o077) looseFiles.push(file);
    if (!name.endsWith('.jsonl')) continue;
    let bad = 0;
    for (const line of fileLines(file)) if (line.trim() && !parseLine(line)) bad++;
    if (bad > 0)
      out.push(
        warn(
          'home',
          `${file} has ${bad} unreadable line${bad === 1 ? '' : 's'} (a crash or a full disk); they are skipped`,
          `nothing to do, or move the file aside if its session is over`,
        ),
      );
  }
  if (looseFiles.length > 0)
    out.push(
      warn(
        'home',
        `${looseFiles.length} session file${looseFiles.length === 1 ? '' : 's'} can be read by other users`,
        `chmod 600 ${join(sessions, '*')}`,
      ),
    );
  return out;
}
