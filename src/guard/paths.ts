import { posix } from 'node:path';
import type { GuardContext } from './context.ts';

// Which paths matter to stallguard, by literal comparison of their last folders and names (never a
// pattern made from a path an agent wrote): stallguard's own files (configuration, state, the installed
// hook and its plugin folders, the node binary it runs), the agents' hook settings files, and the shell
// start-up files a STALLGUARD_MODE could be written into. A settings file matters only for the stallguard
// entries it holds (./entries.ts); an own file matters whole.

export type SettingsFormat = 'json' | 'toml';
export type Place = { kind: 'own' } | { kind: 'settings'; format: SettingsFormat } | { kind: 'startup' };

/** Settings files by their last two path segments: the agent's folder and the file's name. */
const SETTINGS_IN: Record<string, Record<string, SettingsFormat>> = {
  '.claude': { 'settings.json': 'json', 'settings.local.json': 'json' },
  '.codex': { 'hooks.json': 'json', 'config.toml': 'toml', 'requirements.toml': 'toml' },
  '.gemini': { 'settings.json': 'json' },
  '.qwen': { 'settings.json': 'json' },
  // the records of installed Claude plugins and Gemini extensions: stallguard's entries there enable it
  plugins: { 'installed_plugins.json': 'json', 'known_marketplaces.json': 'json' },
  extensions: { 'extension-enablement.json': 'json' },
};
/** System-wide settings folders, whose settings files have other names. */
const SYSTEM_SETTINGS: Record<string, Record<string, SettingsFormat>> = {
  '/etc/claude-code': { 'managed-settings.json': 'json' },
  '/Library/Application Support/ClaudeCode': { 'managed-settings.json': 'json' },
  '/etc/codex': { 'hooks.json': 'json', 'config.toml': 'toml', 'requirements.toml': 'toml' },
  '/etc/gemini-cli': { 'settings.json': 'json', 'system-defaults.json': 'json' },
};
/** Files directly in an agent's config folder moved by the environment (CLAUDE_CONFIG_DIR, CODEX_HOME). */
const IN_CONFIG_DIR: Record<string, SettingsFormat> = {
  'settings.json': 'json',
  'settings.local.json': 'json',
  'hooks.json': 'json',
  'config.toml': 'toml',
  'requirements.toml': 'toml',
  'managed-settings.json': 'json',
};
/** Folders where agents keep installed plugins and extensions; stallguard's own are its files. */
const PLUGIN_FOLDERS = [
  ['.claude', 'plugins'],
  ['.codex', 'plugins'],
  ['.gemini', 'extensions'],
];

/** The folders opencode and pi load stallguard's plugin file from (src/install/opencode.ts, pi.ts), project
 *  and user: that file (stallguard.js there) is stallguard's own. */
const PLUGIN_FILE_FOLDERS = [
  ['.opencode', 'plugins'],
  ['opencode', 'plugins'], // ~/.config/opencode, $XDG_CONFIG_HOME/opencode
  ['.pi', 'extensions'],
  ['.pi', 'agent', 'extensions'],
];

/** Files a shell reads its environment from: a STALLGUARD_MODE written there reaches the next session. */
const STARTUP_NAMES = new Set([
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.kshrc',
  '.mkshrc',
  '.envrc',
  '.pam_environment',
  'config.fish',
]);
const STARTUP_SYSTEM = new Set(['/etc/environment', '/etc/profile', '/etc/bash.bashrc', '/etc/zshrc', '/etc/zshenv']);

/** The places whose removal a recursive delete must not take along, per working folder and the home folder. */
const ANCHOR_FILES = [
  '.claude/settings.json',
  '.claude/settings.local.json',
  '.codex/hooks.json',
  '.codex/config.toml',
  '.gemini/settings.json',
  '.qwen/settings.json',
  '.cursor/hooks.json',
  '.github/hooks/stallguard.json',
  '.opencode/plugins/stallguard.js',
  '.pi/extensions/stallguard.js',
  '.stallguard.json',
  '.stallguard.tuned.json',
  '.stallguard',
];
const HOME_ANCHORS = [
  '.codex/requirements.toml',
  '.claude/plugins/installed_plugins.json',
  '.gemini/extensions/extension-enablement.json',
  '.copilot/hooks/stallguard.json',
  '.config/opencode/plugins/stallguard.js',
  '.pi/agent/extensions/stallguard.js',
];

export function under(abs: string, dir: string | undefined): boolean {
  if (!dir) return false;
  const d = dir.replace(/\/+$/, '');
  return abs === d || abs.startsWith(d === '' ? '/' : d + '/');
}

/**
 * stallguard's own installed files, from the folder of the running hook. From a package or a Claude or
 * Codex plugin the hook runs as <root>/dist/hook.cjs: the build folder, and the plugin's hook and manifest
 * folders beside it. From anywhere else (the Gemini extension's own folder, a copied bundle) only the
 * bundle and the extension's files: the folder may be one the person uses for other things.
 */
function ownFiles(selfDir: string): { dirs: string[]; files: string[] } {
  const dir = selfDir.replace(/\/+$/, '');
  if (posix.basename(dir) === 'dist') {
    const root = posix.dirname(dir);
    return {
      dirs: [dir, ...['hooks', '.claude-plugin', '.codex-plugin', 'extensions'].map((d) => posix.join(root, d))],
      files: [],
    };
  }
  return {
    dirs: [posix.join(dir, 'hooks')],
    files: [posix.join(dir, 'hook.cjs'), posix.join(dir, 'hook-main.cjs'), posix.join(dir, 'gemini-extension.json')],
  };
}

/** Lists made once per context: every path checked asks for them again. */
const cache = new WeakMap<GuardContext, Map<string, string[]>>();
function once(ctx: GuardContext, key: string, make: () => string[]): string[] {
  let m = cache.get(ctx);
  if (!m) {
    m = new Map();
    cache.set(ctx, m);
  }
  let v = m.get(key);
  if (!v) {
    v = make();
    m.set(key, v);
  }
  return v;
}

/** stallguard's own places, as concrete paths: its home, its installed files, the node binary the hook runs. */
export function ownPlaces(ctx: GuardContext): string[] {
  return once(ctx, 'own', () => {
    const own = ctx.selfDir ? ownFiles(ctx.selfDir) : { dirs: [], files: [] };
    return [ctx.stallguardHome, ...own.dirs, ...own.files, ctx.nodePath]
      .filter((p): p is string => !!p)
      .map((p) => p.replace(/\/+$/, '') || '/');
  });
}

function isOwn(abs: string, segs: string[], ctx: GuardContext): boolean {
  if (ownPlaces(ctx).some((p) => under(abs, p) && (p !== ctx.nodePath || abs === p))) return true;
  // the project config (and the layer stallguard tune writes beneath it) anywhere, and a `.stallguard`
  // folder (the default home) with all it holds
  if (segs.at(-1) === '.stallguard.json' || segs.at(-1) === '.stallguard.tuned.json' || segs.includes('.stallguard'))
    return true;
  // the plugin file opencode or pi loads stallguard from
  if (
    segs.at(-1) === 'stallguard.js' &&
    PLUGIN_FILE_FOLDERS.some((f) => f.every((s, i) => segs.at(i - f.length - 1) === s))
  )
    return true;
  // stallguard's plugin or extension as an agent installed it: ~/.claude/plugins/cache/stallguard/...
  for (const [agentDir, folder] of PLUGIN_FOLDERS) {
    for (let i = 0; i + 2 < segs.length; i++) {
      if (
        segs[i] === agentDir &&
        segs[i + 1] === folder &&
        segs.slice(i + 2).some((s) => s.toLowerCase().includes('stallguard'))
      )
        return true;
    }
  }
  return false;
}

/** A record's own entry: a path segment such as `constructor` must not reach Object's prototype. */
function entry<T>(rec: Record<string, T> | undefined, key: string): T | undefined {
  return rec && Object.hasOwn(rec, key) ? rec[key] : undefined;
}

function settingsFormat(abs: string, segs: string[], ctx: GuardContext): SettingsFormat | undefined {
  const name = segs.at(-1) ?? '';
  const folder = segs.at(-2) ?? '';
  if (folder === 'plugins' || folder === 'extensions') {
    // an agent's own plugin folder (~/.claude/plugins), not any folder of that name
    return PLUGIN_FOLDERS.some(([a, f]) => segs.at(-3) === a && f === folder)
      ? entry(entry(SETTINGS_IN, folder), name)
      : undefined;
  }
  // Cursor: project and user `.cursor/`, enterprise `/etc/cursor/`, `.../Application Support/Cursor/`
  if (/^\.?cursor$/i.test(folder)) return name.toLowerCase() === 'hooks.json' ? 'json' : undefined;
  const byFolder = entry(entry(SETTINGS_IN, folder), name);
  if (byFolder) return byFolder;
  // Claude Code's managed policy, by name wherever it is installed, and its drop-in folder
  if (name === 'managed-settings.json' || (folder === 'managed-settings.d' && name.endsWith('.json'))) return 'json';
  // Copilot CLI: every .json in the repository's .github/hooks and the user's ~/.copilot/hooks
  if (folder === 'hooks' && (segs.at(-3) === '.github' || segs.at(-3) === '.copilot') && name.endsWith('.json'))
    return 'json';
  const dir = posix.dirname(abs);
  const system = entry(entry(SYSTEM_SETTINGS, dir), name);
  if (system) return system;
  for (const d of ctx.configDirs ?? []) if (dir === d.replace(/\/+$/, '')) return entry(IN_CONFIG_DIR, name);
  return undefined;
}

/** What a path is to stallguard, if anything. */
export function placeOf(abs: string, ctx: GuardContext): Place | undefined {
  const segs = abs.split('/');
  if (isOwn(abs, segs, ctx)) return { kind: 'own' };
  const format = settingsFormat(abs, segs, ctx);
  if (format) return { kind: 'settings', format };
  const name = segs.at(-1) ?? '';
  if (STARTUP_NAMES.has(name) || STARTUP_SYSTEM.has(abs) || abs.startsWith('/etc/profile.d/'))
    return { kind: 'startup' };
  return undefined;
}

/** A path as the program would see it: `~` and the variables stallguard knows expanded, made absolute, normalised. */
export function resolvePath(path: string, ctx: GuardContext, cwd = ctx.cwd, windows = false): string {
  let p = path.trim();
  if (windows || /^[A-Za-z]:\\|\\/.test(p)) p = p.replace(/\\/g, '/');
  if (ctx.home) p = p.replace(/^(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|\$env:HOME)(?=\/|$)/i, ctx.home);
  if (ctx.stallguardHome) p = p.replace(/^\$\{?STALLGUARD_HOME\}?(?=\/|$)/, ctx.stallguardHome);
  if (cwd) p = p.replace(/^\$\{?(?:PWD|CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|CURSOR_PROJECT_DIR)\}?(?=\/|$)/, cwd);
  p = p.replace(/^[A-Za-z]:(?=\/)/, '');
  if (!p.startsWith('/') && cwd) p = posix.join(cwd, p);
  p = posix.normalize(p);
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/**
 * The places a removal or a write could reach, as spelled from
 * the working folders and the home folder (links not followed).
 */
export function anchorList(ctx: GuardContext, cwd = ctx.cwd): string[] {
  return once(ctx, `anchors\u0000${cwd}`, () => makeAnchorList(ctx, cwd));
}

/**
 * The anchors in order, or only those named `name`: the others are then not joined at all (a call's file is
 * rarely named as one, and a hook process joins each path in V8's interpreter).
 */
function makeAnchorList(ctx: GuardContext, cwd: string | undefined, name?: string): string[] {
  const list: string[] = [];
  const add = (base: string, f: string) => {
    if (name === undefined || posix.basename(f) === name) list.push(posix.join(base, f));
  };
  for (const base of new Set([ctx.cwd, cwd, ctx.home])) if (base) for (const f of ANCHOR_FILES) add(base, f);
  if (ctx.home) for (const f of HOME_ANCHORS) add(ctx.home, f);
  for (const dir of ctx.configDirs ?? []) for (const f of Object.keys(IN_CONFIG_DIR)) add(dir, f);
  for (const p of ownPlaces(ctx)) if (name === undefined || posix.basename(p) === name) list.push(p);
  return list;
}

/**
 * The path, where it leads when it is (or passes through) a symbolic link, and the protected places that
 * lead to the same file: `~/.claude/settings.json` may be a link into a dotfiles repository, whose file
 * is then that settings file under another path.
 */
export function forms(abs: string, ctx: GuardContext): string[] {
  if (!ctx.realpath) return [abs];
  const real = ctx.realpath(abs) ?? abs;
  const out = real !== abs ? [abs, real] : [abs];
  // a link keeps the name it points to, as dotfiles managers make them: only then is the other way round looked up
  const name = posix.basename(real);
  for (const a of makeAnchorList(ctx, ctx.cwd, name)) if (!out.includes(a) && ctx.realpath(a) === real) out.push(a);
  return out;
}

/**
 * The concrete places a removal, a move or a glob could reach: the settings files of the working folders
 * and the home folder, stallguard's own places, and, for links among them, where they lead.
 */
export function anchors(ctx: GuardContext, cwd = ctx.cwd): string[] {
  return once(ctx, `real\u0000${cwd}`, () => {
    const list = anchorList(ctx, cwd);
    const real = ctx.realpath ? list.map((a) => ctx.realpath!(a)).filter((r): r is string => !!r) : [];
    return [...new Set([...list, ...real])];
  });
}

/** Every anchor and every folder above one: what a glob or a run-time name is matched against. */
export function placesAndFolders(ctx: GuardContext, cwd = ctx.cwd): string[] {
  return once(ctx, `folders\u0000${cwd}`, () => {
    const out = new Set<string>();
    for (const a of anchors(ctx, cwd)) {
      const segs = a.split('/');
      for (let i = 1; i <= segs.length; i++) out.add(segs.slice(0, i).join('/') || '/');
    }
    return [...out];
  });
}
