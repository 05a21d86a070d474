import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statfsSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { Script } from 'node:vm';

// Entry of dist/hook.cjs, the file the installed hook command runs: `node <abs>/dist/hook.cjs`. It runs the
// hook (dist/hook-main.cjs) with V8's code cache, which Node 20 has no switch for: the bytecode of every
// function the hook ran, kept in STALLGUARD_HOME/cache, spares each later process compiling them again.
// V8 checks a cache against its version and flags and rejects a stale one; it checks the source only by
// length, so the file name carries a hash of hook-main.cjs, computed at build time. A cache is named after
// how much of the code the run that made it ran (KINDS), the heaviest is preferred, and a run that ran more
// than the cache it loaded makes the next kind: a process holds the bytecode of what it loaded and of what it
// compiled, so that cache holds both, made once a kind. Anything wrong with the cache
// costs only the compilation it would have saved. Anything wrong with the install itself (hook-main.cjs
// missing, cut short, edited) fails open like any other error: exit 0, nothing on stdout, a line in
// errors.log that sends the person to `stallguard doctor`.

declare const __HOOK_MAIN_HASH__: string;
/** hook-main.cjs's length in characters at build time: a file of another length is cut short or not this build's. */
declare const __HOOK_MAIN_LENGTH__: number;

const MAIN = join(__dirname, 'hook-main.cjs');
/**
 * Caches by the path of the run that made them (main.ts's weight), lightest first: no call decided, a call
 * observed, a failed call, a failed verification run (the working tree read).
 */
const KINDS = ['thin', 'full', 'failure', 'tree'] as const;
type Kind = (typeof KINDS)[number];

function homeDir(env: NodeJS.ProcessEnv): string | undefined {
  const set = env.STALLGUARD_HOME?.trim() || env.CLAUDE_PLUGIN_DATA?.trim();
  const user = env.HOME || env.USERPROFILE; // as stallguardHome(), without loading node:os
  return set ? resolve(set) : user ? join(user, '.stallguard') : undefined;
}

function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const home = homeDir(env);
  return home && join(home, 'cache');
}

/** The hook could not run at all: the agent carries on, and errors.log says why and what to run. */
/**
 * Whether hook-main.cjs was read, compiled and ran its module code: an error after that is no damage to the install.
 */
let started = false;

function failOpen(error: unknown): void {
  process.exitCode = 0;
  try {
    const home = homeDir(process.env);
    if (!home || process.env.STALLGUARD_MODE?.trim() === 'off') return;
    const why = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const what = why.replace(/\s+/g, ' ').slice(0, 300);
    const said = started
      ? `an unexpected error (${what}); the call was let through`
      : `the installed hook is damaged (${MAIN}: ${what}); every call is let through unchecked`;
    const line = `${new Date().toISOString()} hook: ${said}; run: stallguard doctor\n`;
    appendFileSync(join(home, 'errors.log'), line, { mode: 0o600 });
  } catch {
    // nowhere to report; the agent still carries on
  }
}

/** The heaviest cache of this build there is, read from the folder's listing (no failed open for each kind). */
function readCache(dir: string, base: string): { kind: Kind; file: string; data: Buffer } | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined; // not made yet
  }
  for (let k = KINDS.length - 1; k >= 0; k--) {
    const file = `${base}.${KINDS[k]}.v8`;
    if (!names.includes(file.slice(dir.length + 1))) continue;
    try {
      return { kind: KINDS[k]!, file, data: readFileSync(file) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function writeCache(dir: string, base: string, kind: Kind, data: Buffer): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // the cache is a saving, never worth the ledger's room: on a nearly full disk it is not written at all
  const { bavail, bsize } = statfsSync(dir);
  if (bavail * bsize < data.length * 16) return;
  const tmp = `${base}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data, { mode: 0o600 });
    renameSync(tmp, `${base}.${kind}.v8`);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
  // caches of other builds or node versions are of no more use
  const mine = base.slice(dir.length + 1);
  for (const name of readdirSync(dir))
    if (name.startsWith('hook-') && name.endsWith('.v8') && !name.startsWith(mine)) unlinkSync(join(dir, name));
}

function run(): void {
  // stallguard turned off writes nothing in its home, but still starts with the cache there, as fast as when on
  const off = process.env.STALLGUARD_MODE?.trim() === 'off';
  const dir = cacheDir(process.env);
  const base = dir && join(dir, `hook-${__HOOK_MAIN_HASH__}-${process.version}-${process.arch}`);
  const cached = dir && base ? readCache(dir, base) : undefined;
  const source = readFileSync(MAIN, 'utf8');
  if (source.length !== __HOOK_MAIN_LENGTH__)
    throw new Error(
      `${source.length} characters long where the build ` +
        `made ${__HOOK_MAIN_LENGTH__} (cut short, edited, or from another version)`,
    );
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: MAIN,
    cachedData: cached?.data,
  });
  // a cache V8 rejects is removed, lest it be chosen again by every later run
  if (cached && script.cachedDataRejected && !off) rmSync(cached.file, { force: true });
  const used = script.cachedDataRejected ? undefined : cached?.kind;
  const mod = { exports: {} as { weight?: number } };
  (script.runInThisContext() as (...args: unknown[]) => void)(mod.exports, require, mod, MAIN, __dirname);
  started = true;
  if (!dir || !base || off || used === KINDS.at(-1)) return;
  process.once('exit', () => {
    const kind = KINDS[mod.exports.weight ?? 0] ?? 'thin';
    if (used !== undefined && KINDS.indexOf(used) >= KINDS.indexOf(kind)) return;
    try {
      writeCache(dir, base, kind, script.createCachedData());
    } catch {
      /* no cache this time */
    }
  });
}

// an error thrown later by a damaged hook-main.cjs would otherwise end the process with a stack trace and exit 1
process.on('uncaughtException', failOpen);
process.on('unhandledRejection', failOpen);
try {
  run();
} catch (error) {
  failOpen(error);
}
