import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { GuardContext } from '../guard/context.ts';

// The I/O half of self-protection: where this machine keeps what the guard protects, a realpath that
// follows symbolic links, so that `ln -s ~/.claude/settings.json notes.txt` followed by an edit of
// notes.txt is seen for what it is, and the text of a settings file now, to tell stallguard's entries in
// it from the person's settings.

/**
 * Where a path leads once symbolic links are followed; for a
 * path that does not exist yet, its deepest existing folder's.
 */
export function realpathOf(abs: string): string | undefined {
  // existsSync does not throw: most of the places asked about do
  // not exist, and a thrown error costs more than the look-up
  const rest: string[] = [];
  let dir = abs;
  for (let i = 0; i < 64 && !existsSync(dir); i++) {
    const up = dirname(dir);
    if (up === dir) return undefined;
    rest.push(basename(dir));
    dir = up;
  }
  try {
    return join(realpathSync.native(dir), ...rest.reverse());
  } catch {
    return undefined;
  }
}

/** Settings files are small; a larger file counts as one that cannot be read, which protects it whole. */
const MAX_SETTINGS_BYTES = 4 << 20;

/** A file's text; undefined when there is none, null when something is there that cannot be read. */
export function readTextOf(abs: string): string | null | undefined {
  try {
    // a folder, a FIFO (reading it would wait for a writer), a device: not a settings file stallguard can read
    const st = statSync(abs);
    if (!st.isFile() || st.size > MAX_SETTINGS_BYTES) return null;
    return readFileSync(abs, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' || code === 'ENOTDIR' ? undefined : null;
  }
}

/** The agents' config folders the environment moves elsewhere than ~/.claude and ~/.codex. */
function configDirs(env: NodeJS.ProcessEnv, home: string): string[] {
  const dirs = [join(home, '.config', 'claude')];
  for (const d of (env.CLAUDE_CONFIG_DIR ?? '').split(/[,:]/)) if (d.trim()) dirs.push(resolve(d.trim()));
  if (env.CODEX_HOME?.trim()) dirs.push(resolve(env.CODEX_HOME.trim()));
  return dirs;
}

export function guardContext(
  env: NodeJS.ProcessEnv,
  home: string,
  stallguardHome: string,
  selfDir?: string,
): GuardContext {
  return {
    home,
    stallguardHome,
    selfDir,
    nodePath: process.execPath,
    configDirs: configDirs(env, home),
    realpath: realpathOf,
    readText: readTextOf,
  };
}
