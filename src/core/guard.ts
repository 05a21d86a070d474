import { posix } from 'node:path';
import type { GuardHit, ToolCall } from '../types.ts';
import { parseMaybeJson } from './canonical.ts';
import { shellSegments } from './classify.ts';

// Self-protection: a guard the guarded agent can switch off is no guard. In enforce mode a call that would
// change stallguard's configuration or state, or any agent's hook settings, is denied. Reading those files
// stays allowed, and so do ordinary edits to files next to them.

export interface GuardContext {
  cwd?: string;
  home?: string;
  /** STALLGUARD_HOME, resolved. */
  stallguardHome?: string;
  /** The folder of the installed hook bundle. */
  selfDir?: string;
}

const PROTECTED_FILE = [
  /(?:^|\/)\.claude\/settings(?:\.local)?\.json$/,
  /(?:^|\/)managed-settings\.json$/,
  /(?:^|\/)\.codex\/(?:hooks\.json|config\.toml)$/,
  /(?:^|\/)\.gemini\/settings\.json$/,
  /(?:^|\/)\.cursor\/hooks\.json$/,
  /(?:^|\/)cursor\/hooks\.json$/,
  /(?:^|\/)\.github\/hooks\/[^/]+\.json$/,
  /(?:^|\/)\.stallguard\.json$/,
  /(?:^|\/)\.stallguard(?:\/|$)/,
];
/** Folders whose removal or move takes hook settings with them. */
const PROTECTED_DIR = /^(?:.*\/)?(?:\.claude|\.codex|\.gemini|\.cursor|\.github|\.github\/hooks|\.stallguard)\/?$/;

const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'write_file', 'replace', 'create', 'edit', 'str_replace_editor', 'Delete', 'delete_file', 'apply_patch']);
const SHELL_TOOLS = new Set(['Bash', 'bash', 'run_shell_command', 'exec_command', 'Shell', 'shell', 'PowerShell', 'powershell']);
const WRITING_VERBS = /^(?:rm|rmdir|unlink|mv|cp|install|ln|chmod|chown|truncate|tee|dd|touch|vi|vim|nvim|nano|emacs|ed|code|patch|shred)$/;
const DIR_VERBS = /^(?:rm|rmdir|mv|chmod|chown|ln|shred)$/;
const INTERPRETERS = /^(?:python\d?(?:\.\d+)?|node|perl|ruby|php|sh|bash|zsh|jq|awk|deno|bun)$/;
const WRITE_API = /open\([^)]*['"][wax+]|write(?:File|FileSync|_text|_bytes|lines)?\s*\(|unlink|rename|remove|rmSync|rmdir|truncate|copyFile|dump\(|>\s*\S|-i\b|sub\(|inplace/;

export function isProtectedPath(path: string, ctx: GuardContext): boolean {
  const abs = resolvePath(path, ctx);
  if (ctx.stallguardHome && (abs === ctx.stallguardHome || abs.startsWith(ctx.stallguardHome.replace(/\/$/, '') + '/'))) return true;
  if (ctx.selfDir && abs.startsWith(ctx.selfDir.replace(/\/$/, '') + '/')) return true;
  return PROTECTED_FILE.some((re) => re.test(abs));
}

function resolvePath(path: string, ctx: GuardContext): string {
  let p = path.trim().replace(/^["']|["']$/g, '');
  if (ctx.home) p = p.replace(/^(?:~|\$HOME|\$\{HOME\})(?=\/|$)/, ctx.home);
  if (ctx.stallguardHome) p = p.replace(/^\$\{?STALLGUARD_HOME\}?(?=\/|$)/, ctx.stallguardHome);
  if (!p.startsWith('/') && ctx.cwd) p = posix.join(ctx.cwd, p);
  return posix.normalize(p);
}

function isProtectedDir(word: string, ctx: GuardContext): boolean {
  const abs = resolvePath(word, ctx);
  if (ctx.stallguardHome && abs === ctx.stallguardHome.replace(/\/$/, '')) return true;
  if (ctx.home && (abs === ctx.home || abs === ctx.home + '/')) return true;
  return PROTECTED_DIR.test(abs);
}

function shellHit(command: string, ctx: GuardContext): string | undefined {
  if (/\bSTALLGUARD_(?:MODE|HOME)\s*=/.test(command)) return 'STALLGUARD_MODE';
  for (const words of shellSegments(command)) {
    const verb = words[0]!.replace(/^.*\//, '');
    const args = words.slice(1);
    if ((verb === 'sed' || verb === 'perl') && args.some((a) => /^-\w*i/.test(a))) {
      const hit = args.find((a) => isProtectedPath(a, ctx));
      if (hit) return hit;
    }
    if (verb === 'git' && /^(?:checkout|restore|apply|rm|mv|reset)$/.test(args[0] ?? '')) {
      const hit = args.find((a) => !a.startsWith('-') && isProtectedPath(a, ctx));
      if (hit) return hit;
    }
    if (WRITING_VERBS.test(verb)) {
      const hit = args.find((a) => !a.startsWith('-') && isProtectedPath(a, ctx));
      if (hit && !(verb === 'cp' && hit !== args.filter((a) => !a.startsWith('-')).at(-1))) return hit;
      if (DIR_VERBS.test(verb)) {
        const dir = args.find((a) => !a.startsWith('-') && isProtectedDir(a, ctx));
        if (dir) return dir;
      }
    }
    if (INTERPRETERS.test(verb)) {
      const code = args.join(' ');
      if (WRITE_API.test(code)) {
        const hit = code.match(/[^\s'"`()]*(?:\.claude|\.codex|\.gemini|\.cursor|\.github\/hooks|\.stallguard|managed-settings)[^\s'"`(),]*/g)?.find((p) => isProtectedPath(p, ctx));
        if (hit) return hit;
      }
    }
  }
  // redirections: `> file`, `>> file`, `2> file`, `&> file`
  for (const m of command.matchAll(/(?:^|[^<>])(?:\d|&)?>{1,2}\|?\s*("[^"]+"|'[^']+'|[^\s;&|<>]+)/g)) {
    if (isProtectedPath(m[1]!, ctx)) return m[1]!.replace(/^["']|["']$/g, '');
  }
  return undefined;
}

/** Whether a call would change stallguard's own files or an agent's hook settings. */
export function guardCall(call: ToolCall, ctx: GuardContext): GuardHit | undefined {
  const input = parseMaybeJson(call.input);
  const o = (input && typeof input === 'object' ? input : {}) as Record<string, unknown>;
  if (EDIT_TOOLS.has(call.name)) {
    const paths = [o.file_path, o.path, o.notebook_path, o.filePath, o.absolute_path, o.target_file].filter((p): p is string => typeof p === 'string');
    const patch = typeof o.command === 'string' ? o.command : typeof o.patch === 'string' ? o.patch : typeof o.input === 'string' ? o.input : '';
    for (const m of patch.matchAll(/\*\*\* (?:Update|Add|Delete) File: (\S+)|\*\*\* Move to: (\S+)/g)) paths.push((m[1] ?? m[2])!);
    const hit = paths.find((p) => isProtectedPath(p, ctx));
    return hit ? { code: 'SELF_PROTECT', path: hit } : undefined;
  }
  const command = typeof o.command === 'string' ? o.command : Array.isArray(o.command) ? o.command.join(' ') : typeof o.cmd === 'string' ? o.cmd : undefined;
  if (command !== undefined && (SHELL_TOOLS.has(call.name) || call.name === 'Bash')) {
    const hit = shellHit(command, ctx);
    return hit ? { code: 'SELF_PROTECT', path: hit } : undefined;
  }
  return undefined;
}
