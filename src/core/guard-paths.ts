import { posix } from 'node:path';

// Which paths are stallguard's to protect: every supported agent's hook settings at every scope, and
// stallguard's own configuration, state, hook bundle and plugin files. Pure: symbolic links are resolved
// only through the `realpath` the caller passes in.

export interface GuardContext {
  cwd?: string;
  home?: string;
  /** STALLGUARD_HOME, resolved. */
  stallguardHome?: string;
  /** The folder of the installed hook bundle. */
  selfDir?: string;
  /** The node binary that runs the installed hook: without it every hook call fails, and fails open. */
  nodePath?: string;
  /** Agents' own config folders set by the environment (CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME). */
  configDirs?: string[];
  /** Resolves symbolic links (the hook passes fs.realpath); a path is protected if it or its target is. */
  realpath?: (abs: string) => string | undefined;
}

const PROTECTED_FILE = [
  // Claude Code: project, local and user settings, managed policy, installed plugins
  /(?:^|\/)\.claude\/settings(?:\.local)?\.json$/,
  /(?:^|\/)managed-settings\.json$/,
  /(?:^|\/)managed-settings\.d\//,
  /(?:^|\/)\.claude\/plugins\//,
  /^\/etc\/claude-code\//,
  /\/Library\/Application Support\/ClaudeCode\//,
  // Codex CLI: hooks.json or config.toml, user and project; managed requirements; plugins
  /(?:^|\/)\.codex\/(?:hooks\.json|config\.toml|requirements\.toml)$/,
  /(?:^|\/)\.codex\/plugins\//,
  /^\/etc\/codex\//,
  // Gemini CLI: project and user settings, system settings, extensions
  /(?:^|\/)\.gemini\/settings\.json$/,
  /(?:^|\/)\.gemini\/extensions\//,
  /^\/etc\/gemini-cli\//,
  // Cursor: project, user and enterprise hooks.json
  /(?:^|\/)\.?cursor\/hooks\.json$/i,
  // Copilot CLI
  /(?:^|\/)\.github\/hooks\/[^/]+\.json$/,
  // opencode and pi: the folders they load in-process plugins from, project and user
  /(?:^|\/)(?:\.opencode|\.config\/opencode)\/plugins?\//,
  /(?:^|\/)\.pi\/(?:agent\/)?extensions\//,
  // stallguard: project config, and the default home
  /(?:^|\/)\.stallguard\.json$/,
  /(?:^|\/)\.stallguard(?:\/|$)/,
];

/** What every PROTECTED_FILE path contains: one test spares most paths the whole list. */
const MAYBE_PROTECTED = /\.claude|managed-settings|claude-?code|codex|\.gemini|gemini-cli|cursor|\.github|\.stallguard|opencode|\.pi\//i;

/** Folders whose removal or move takes hook settings with them. */
const PROTECTED_DIR = /(?:^|\/)(?:\.claude|\.codex|\.gemini|\.cursor|\.github|\.github\/hooks|\.stallguard|\.opencode(?:\/plugins?)?|\.pi(?:\/agent)?(?:\/extensions)?)$/;

/** Files a shell reads its environment from: a STALLGUARD_MODE written there reaches the next session. */
export const STARTUP_FILE =
  /(?:^|\/)(?:\.bashrc|\.bash_profile|\.bash_login|\.bash_logout|\.profile|\.zshrc|\.zshenv|\.zprofile|\.zlogin|\.kshrc|\.mkshrc|\.envrc|\.pam_environment|config\.fish)$|^\/etc\/(?:environment|profile|bash\.bashrc|zshrc|zshenv|profile\.d\/.*)$/;

/** Names that, written anywhere, mean hook settings or stallguard's files: used to spot them in code and globs. */
export const MENTION = /[^\s'"`()[\]{},;=<>|&]{0,256}(?:\.claude|\.codex|\.gemini|\.cursor|\.github[/\\]hooks|\.stallguard|managed-settings|\.opencode[/\\]plugins?|\.pi[/\\](?:agent[/\\])?extensions)[^\s'"`()[\]{},;<>|&]{0,256}/g;

const FILES_IN_CONFIG_DIR = /^(?:settings(?:\.local)?\.json|hooks\.json|config\.toml|requirements\.toml|managed-settings\.json)$|^(?:plugins|extensions)\//;

function under(abs: string, dir: string | undefined): boolean {
  if (!dir) return false;
  const d = dir.replace(/\/+$/, '');
  return abs === d || abs.startsWith(d + '/');
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
    return { dirs: [dir, ...['hooks', '.claude-plugin', '.codex-plugin', 'extensions'].map((d) => posix.join(root, d))], files: [] };
  }
  return { dirs: [posix.join(dir, 'hooks')], files: [posix.join(dir, 'hook.cjs'), posix.join(dir, 'gemini-extension.json')] };
}

function isProtectedLiteral(abs: string, ctx: GuardContext): boolean {
  if (under(abs, ctx.stallguardHome)) return true;
  if (ctx.nodePath && abs === ctx.nodePath) return true;
  if (ctx.selfDir) {
    const own = ownFiles(ctx.selfDir);
    if (own.dirs.some((d) => under(abs, d)) || own.files.includes(abs)) return true;
  }
  for (const dir of ctx.configDirs ?? []) if (under(abs, dir) && FILES_IN_CONFIG_DIR.test(abs.slice(dir.replace(/\/+$/, '').length + 1))) return true;
  return MAYBE_PROTECTED.test(abs) && PROTECTED_FILE.some((re) => re.test(abs));
}

function isProtectedDirLiteral(abs: string, ctx: GuardContext): boolean {
  if (ctx.stallguardHome && abs === ctx.stallguardHome.replace(/\/+$/, '')) return true;
  if (ctx.selfDir && ownFiles(ctx.selfDir).dirs.includes(abs)) return true;
  for (const dir of ctx.configDirs ?? []) if (abs === dir.replace(/\/+$/, '')) return true;
  return PROTECTED_DIR.test(abs);
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

/** The path, and where it leads when it is (or passes through) a symbolic link. */
function forms(abs: string, ctx: GuardContext): string[] {
  const real = ctx.realpath?.(abs);
  return real && real !== abs ? [abs, real] : [abs];
}

/** Whether writing, moving or deleting this file switches stallguard off or changes an agent's hooks. */
export function isProtectedFile(abs: string, ctx: GuardContext): boolean {
  return forms(abs, ctx).some((p) => isProtectedLiteral(p, ctx));
}

/** Whether this folder is one whose removal or move takes protected files with it. */
export function isProtectedDir(abs: string, ctx: GuardContext): boolean {
  return forms(abs, ctx).some((p) => isProtectedDirLiteral(p, ctx) || isProtectedLiteral(p, ctx));
}

/** The concrete protected places for a working folder: what a recursive delete must not take with it. */
export function anchors(ctx: GuardContext, cwd = ctx.cwd): string[] {
  const list: string[] = [];
  for (const base of new Set([ctx.cwd, cwd, ctx.home])) {
    if (!base) continue;
    for (const f of ['.claude/settings.json', '.claude/settings.local.json', '.codex/hooks.json', '.codex/config.toml', '.gemini/settings.json', '.cursor/hooks.json', '.github/hooks/hooks.json', '.stallguard.json', '.stallguard']) {
      list.push(posix.join(base, f));
    }
  }
  return [...list, ...ownPlaces(ctx), ...(ctx.nodePath ? [ctx.nodePath] : [])];
}

/** stallguard's own places, as concrete paths: its home, its installed files, the agents' config folders from the environment. */
export function ownPlaces(ctx: GuardContext): string[] {
  const own = ctx.selfDir ? ownFiles(ctx.selfDir) : { dirs: [], files: [] };
  return [ctx.stallguardHome, ...own.dirs, ...own.files, ...(ctx.configDirs ?? [])].filter((p): p is string => !!p).map((p) => p.replace(/\/+$/, ''));
}

/** Whether removing or moving this folder would take a protected place with it (`rm -rf ~`, `rm -rf .`). */
export function holdsProtected(abs: string, ctx: GuardContext, cwd = ctx.cwd): boolean {
  if (isProtectedDir(abs, ctx)) return true;
  return forms(abs, ctx).some((p) => anchors(ctx, cwd).some((a) => a === p || a.startsWith(p === '/' ? '/' : p + '/')));
}

/** A glob as a regular expression over absolute paths, with the shell's rule that `*` does not match a leading dot. */
export function globRegex(absPattern: string): RegExp {
  const parts = absPattern.split('/').map((part) => {
    let re = /^[*?[]/.test(part) ? '(?!\\.)' : '';
    for (let i = 0; i < part.length; i++) {
      const c = part[i]!;
      if (c === '*') re += '[^/]*';
      else if (c === '?') re += '[^/]';
      else if (c === '[') {
        const close = part.indexOf(']', i + 2);
        if (close === -1) re += '\\[';
        else {
          re += '[' + part.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
          i = close;
        }
      } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
    }
    return re;
  });
  return new RegExp(`^${parts.join('/')}$`);
}

export function isGlob(word: string): boolean {
  return /[*?]|\[[^\]]+\]/.test(word);
}

/** A protected place a glob could name: `file` protected files only, `dir` protected folders too, `holds` any folder holding one. */
export function globHits(absPattern: string, ctx: GuardContext, cwd: string | undefined, test: 'file' | 'dir' | 'holds'): string | undefined {
  const re = globRegex(absPattern);
  const places = anchors(ctx, cwd).flatMap((a) => a.split('/').map((_, i, all) => all.slice(0, i + 1).join('/') || '/'));
  return places.find((c) => re.test(c) && (test === 'holds' || isProtectedFile(c, ctx) || (test === 'dir' && isProtectedDir(c, ctx))));
}
