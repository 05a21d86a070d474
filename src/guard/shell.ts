import { posix } from 'node:path';
import { anchors, type GuardContext, globHits, holdsProtected, isGlob, isProtectedDir, isProtectedFile, MENTION, ownPlaces, resolvePath, STARTUP_FILE } from './paths.ts';
import { lexShell, type Simple } from '../shell/lex.ts';

// Whether a shell command would switch the guard off: write, move, delete or re-permission a protected
// file (by redirection, a file tool, an editor, an in-place edit, git, an archive, a download, an
// interpreter's one-liner or a nested shell), remove a folder that holds one, set STALLGUARD_MODE or
// STALLGUARD_HOME, turn hooks off, or uninstall stallguard. What it cannot see: a script written now and
// run later, code read from a file, text that only exists at run time. README "Threat model" says so.

/** Assigning STALLGUARD_MODE/HOME in shell or code, or exporting, unsetting or persisting them. Reading them is fine. */
const ENV_SWITCH =
  /(?:^|[^\w$])STALLGUARD_(?:MODE|HOME)['"\]]{0,3}\s{0,3}=(?!=)|\b(?:unset|export|setenv|setx|declare|typeset|readonly)\b[^;&|\n]{0,200}\bSTALLGUARD_(?:MODE|HOME)\b|\blaunchctl\s+(?:un)?setenv\s+STALLGUARD_/i;
/** Claude Code's switch for every hook, set to true (`claude config set disableAllHooks true`, a JSON edit). */
const HOOKS_OFF = /disableAllHooks['"]?\s{0,3}[:=,]?\s{0,3}['"]?true/i;

/** Programs that write the file they are given, whatever its name. */
const FILE_WRITERS = new Set(['touch', 'truncate', 'tee', 'sponge', 'patch', 'vi', 'vim', 'nvim', 'view', 'nano', 'pico', 'emacs', 'emacsclient', 'ed', 'ex', 'code', 'subl', 'micro', 'joe', 'mcedit', 'kak', 'hx', 'helix', 'mkfifo']);
/** Programs that remove, move, link or re-permission what they are given: a folder holding a protected place counts too. */
const REMOVERS = new Set(['rm', 'rmdir', 'unlink', 'shred', 'srm', 'trash', 'trash-put', 'mv', 'rename', 'chmod', 'chown', 'chgrp', 'chattr', 'setfacl', 'ln', 'link']);
/** Programs that copy onto their last argument (or -t folder). */
const COPIERS = new Set(['cp', 'install', 'rsync', 'scp', 'ditto']);
/** PowerShell's file cmdlets and their aliases, lower-cased. */
const POWERSHELL = new Set(['set-content', 'add-content', 'out-file', 'remove-item', 'move-item', 'copy-item', 'new-item', 'clear-content', 'rename-item', 'set-itemproperty', 'del', 'erase', 'ri', 'mi', 'cpi', 'ni', 'sc', 'ac', 'move', 'copy', 'ren', 'rd']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'ash', 'busybox', 'pwsh', 'powershell', 'cmd']);
const INTERPRETERS = /^(?:python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php[\d.]*|lua[\d.]*|luajit|r|rscript|osascript|tclsh|awk|gawk|mawk|nawk|julia|groovy|kotlin|scala|elixir|erl|swift|tsx|ts-node)$/;
/** Calls in code that write, move or delete files, or run a command that might. */
const WRITE_API =
  /open\s*\([^)]{0,200}['"][wax+]|write|unlink|rename|remove|rmSync|rmdir|rmtree|truncate|copy|dump\s*\(|symlink|chmod|chown|move|replace\s*\(|system\s*\(|exec|spawn|popen|subprocess|child_process|`|>\s*\S|-i\b|sub\s*\(|inplace|File\.|IO\.|Path\(/;
/** Words that run the next words as a command, and which of their own flags take a value. */
const WRAPPERS: Record<string, RegExp | undefined> = {
  sudo: /^-[ugCDhprT]$/,
  doas: /^-[uC]$/,
  env: /^-[uCS]$|^--(?:unset|chdir)$/,
  time: undefined,
  nohup: undefined,
  exec: /^-a$/,
  command: undefined,
  builtin: undefined,
  nice: /^-n$/,
  ionice: /^-[cnp]$/,
  stdbuf: undefined,
  chronic: undefined,
  unbuffer: undefined,
  caffeinate: /^-[tw]$/,
  xargs: /^-[IinPLdaEs]$/,
  flock: /^-[wE]$/,
  then: undefined,
  do: undefined,
  else: undefined,
  if: undefined,
  elif: undefined,
  while: undefined,
  until: undefined,
  '!': undefined,
  '{': undefined,
  '}': undefined,
};

interface Scope {
  ctx: GuardContext;
  cwd: string | undefined;
  vars: Map<string, string>;
  windows: boolean;
  depth: number;
  /** The whole command, for the fallback when a word is only known at run time. */
  text: string;
}

function base(word: string): string {
  return word.replace(/^.*[/\\]/, '');
}

/** The path arguments among a command's words: flags dropped, `--flag=path` and `of=path` values kept. */
function pathArgs(args: string[]): string[] {
  const out: string[] = [];
  let flags = true;
  for (const a of args) {
    if (flags && a === '--') flags = false;
    else if (flags && a.startsWith('-') && a.length > 1) {
      if (a.includes('=')) out.push(a.slice(a.indexOf('=') + 1));
    } else if (/^[a-z]+=/.test(a)) out.push(a.slice(a.indexOf('=') + 1));
    else out.push(a);
  }
  return out.filter((a) => a.length > 0);
}

function substitute(word: string, vars: Map<string, string>): string {
  return word.replace(/\$\{(\w+)\}|\$(\w+)/g, (m, a: string | undefined, b: string | undefined) => vars.get((a ?? b)!) ?? m);
}

type Test = 'file' | 'dir' | 'holds';

/**
 * Whether the path named by `word` is protected, in the sense the program needs: `file` for programs that
 * write the file they are given, `dir` adds protected folders, `holds` adds every folder that holds a
 * protected place (for rm -r and mv). Returns what to report.
 */
function hits(word: string, s: Scope, test: Test): string | undefined {
  const abs = resolvePath(word, s.ctx, s.cwd, s.windows);
  if (isGlob(word)) return globHits(abs, s.ctx, s.cwd, test);
  if (isProtectedFile(abs, s.ctx)) return abs;
  if (test === 'dir' && isProtectedDir(abs, s.ctx)) return abs;
  if (test === 'holds' && holdsProtected(abs, s.ctx, s.cwd)) return abs;
  return undefined;
}

function firstHit(words: string[], s: Scope, test: Test): string | undefined {
  for (const w of words) {
    const hit = hits(w, s, test);
    if (hit) return hit;
  }
  return undefined;
}

/** Code for an interpreter that writes somewhere and names a protected place. */
/** STALLGUARD_MODE or STALLGUARD_HOME set, or hooks switched off, anywhere in the text (the plain searches first: they are cheap). */
function switchHit(text: string): string | undefined {
  if (/stallguard_/i.test(text) && ENV_SWITCH.test(text)) return 'STALLGUARD_MODE';
  if (/disableallhooks/i.test(text) && HOOKS_OFF.test(text)) return 'disableAllHooks';
  return undefined;
}

function codeHit(code: string, s: Scope): string | undefined {
  const off = switchHit(code);
  if (off) return off;
  if (!WRITE_API.test(code)) return undefined;
  for (const m of code.matchAll(MENTION)) {
    const hit = hits(m[0], s, 'dir');
    if (hit) return hit;
  }
  for (const p of ownPlaces(s.ctx)) if (code.includes(p)) return p;
  return undefined;
}

/** A shell's one-liner runs as a command of its own; an interpreter's is checked as code. */
function runCode(program: string, code: string, s: Scope): string | undefined {
  if (SHELLS.has(program)) return s.depth < 4 ? check(code, { ...s, depth: s.depth + 1, windows: s.windows || program === 'pwsh' || program === 'powershell' }) : codeHit(code, s);
  return codeHit(code, s);
}

/** What a command's stdin will be, when the text says: a here-document, a here-string, `echo ... |`, `base64 -d`. */
function stdinOf(seg: Simple, before: Simple | undefined): string | undefined {
  if (seg.stdin.length > 0) return seg.stdin.join('\n');
  if (!before || before.pipeline !== seg.pipeline) return undefined;
  const verb = base(before.words[0] ?? '');
  if (verb === 'echo' || verb === 'printf') return before.words.slice(1).filter((w) => !/^-[neE]+$/.test(w)).join(' ').replace(/\\n/g, '\n');
  if (verb === 'cat' && before.words.length === 1) return before.stdin.join('\n');
  return undefined;
}

function decodeBase64(text: string): string {
  return [...text.matchAll(/[A-Za-z0-9+/]{8,}={0,2}/g)].map((m) => Buffer.from(m[0], 'base64').toString('utf8')).join('\n');
}

/** Every simple command of the text, in order, with `cd` moving the folder later paths resolve against. */
function check(text: string, outer: Scope): string | undefined {
  const off = switchHit(text);
  if (off) return off;
  const s: Scope = { ...outer, vars: new Map(outer.vars), text };
  const segs = lexShell(text, s.windows);
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const words = seg.words.map((w) => substitute(w, s.vars));
    for (const target of seg.writes.map((w) => substitute(w, s.vars))) {
      const hit = hits(target, s, 'file');
      if (hit) return hit;
    }
    let k = 0;
    let viaXargs = false;
    while (k < words.length) {
      const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(words[k]!);
      if (assignment) {
        s.vars.set(assignment[1]!, assignment[2]!);
        k++;
        continue;
      }
      const verb = base(words[k]!);
      if (verb === 'export' || verb === 'local' || verb === 'readonly' || verb === 'declare') {
        k++;
        continue;
      }
      if (verb === 'timeout') {
        for (k++; words[k]?.startsWith('-'); k++);
        k++; // the duration
        continue;
      }
      if (!Object.hasOwn(WRAPPERS, verb)) break;
      if (verb === 'xargs') viaXargs = true;
      const takesValue = WRAPPERS[verb];
      for (k++; k < words.length && words[k]!.startsWith('-') && words[k] !== '-'; k++) {
        if (verb === 'env' && /^(?:-C|--chdir)$/.test(words[k]!)) s.cwd = resolvePath(words[k + 1] ?? '.', s.ctx, s.cwd, s.windows);
        if (takesValue?.test(words[k]!)) k++;
      }
    }
    const dynamic = seg.dynamic || words.some((w) => /\$\{?\w/.test(w) && !/^\$\{?(?:HOME|PWD|STALLGUARD_HOME|CLAUDE_PROJECT_DIR|GEMINI_PROJECT_DIR|CURSOR_PROJECT_DIR)\b/.test(w));
    const hit = checkSimple(words.slice(k), { ...seg, dynamic }, segs[i - 1], s, viaXargs ? segs.filter((x) => x.pipeline === seg.pipeline && x !== seg) : []);
    if (hit) return hit;
  }
  return undefined;
}

function checkSimple(words: string[], seg: Simple, before: Simple | undefined, s: Scope, xargsFeed: Simple[]): string | undefined {
  if (words.length === 0) return undefined;
  const program = base(words[0]!).toLowerCase().replace(/\.exe$/, '');
  const args = words.slice(1);
  const paths = pathArgs(args);

  if (program === 'cd' || program === 'pushd' || program === 'set-location' || program === 'sl') {
    s.cwd = paths[0] === undefined ? s.ctx.home ?? s.cwd : paths[0] === '-' ? s.cwd : resolvePath(paths[0], s.ctx, s.cwd, s.windows);
    return undefined;
  }
  // `... | xargs rm`: the names come from the rest of the pipeline
  if (xargsFeed.length > 0 && (REMOVERS.has(program) || FILE_WRITERS.has(program) || COPIERS.has(program))) {
    for (const x of xargsFeed) {
      const hit = firstHit(pathArgs(x.words.slice(1)), s, 'dir');
      if (hit) return hit;
    }
  }
  if (uninstallsStallguard(program, args)) return 'stallguard';

  let hit: string | undefined;
  if (REMOVERS.has(program)) hit = firstHit(paths, s, 'holds');
  else if (FILE_WRITERS.has(program)) hit = firstHit(paths, s, 'file');
  else if (program === 'dd') hit = firstHit(args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)), s, 'file');
  else if (COPIERS.has(program)) hit = copyHit(args, s);
  else if (POWERSHELL.has(program)) hit = firstHit(paths, s, program.startsWith('copy') || program === 'cpi' ? 'dir' : 'holds');
  else if (program === 'sed' || program === 'perl' || program === 'ruby') {
    if (args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place'))) hit = firstHit(paths, s, 'file');
  } else if (/^g?awk$/.test(program) && args.some((a, j) => a === 'inplace' && args[j - 1] === '-i')) hit = firstHit(paths, s, 'file');
  else if (program === 'git') hit = gitHit(args, s);
  else if (program === 'find') hit = findHit(args, s);
  else if (program === 'tar' || program === 'unzip' || program === 'bsdtar' || program === '7z') hit = extractHit(args, s);
  else if (program === 'curl' || program === 'wget' || program === 'aria2c' || program === 'http' || program === 'xh') hit = downloadHit(args, s);
  else if (program === 'eval') hit = runCode('sh', args.join(' '), s);
  if (hit) return hit;

  if (SHELLS.has(program) || INTERPRETERS.test(program)) {
    const flag = args.findIndex((a) => /^(?:-c|-e|-E|-p|-r|--eval|--print|-Command|\/c)$/i.test(a) || /^-[a-zA-Z]*[ce]$/.test(a));
    const powershell = program === 'pwsh' || program === 'powershell' || program === 'cmd';
    // awk's program is its first word that is not a flag
    const code = flag !== -1 ? (powershell ? args.slice(flag + 1).join(' ') : args[flag + 1]) : /awk$/.test(program) && !args.includes('-f') ? args.find((a) => !a.startsWith('-')) : undefined;
    if (code !== undefined) {
      hit = runCode(program, code, s);
      if (hit) return hit;
    }
    const stdin = stdinOf(seg, before);
    if (stdin !== undefined) {
      hit = runCode(program, stdin, s);
      if (hit) return hit;
    }
    // `echo <base64> | base64 -d | sh`: the decoded text is what runs
    if (before && before.pipeline === seg.pipeline && base(before.words[0] ?? '') === 'base64' && before.words.some((w) => /^(?:-d|-D|--decode)$/.test(w))) {
      const encoded = stdinOf(before, undefined) ?? '';
      const decoded = decodeBase64(encoded) || decodeBase64(s.text);
      hit = runCode(program, decoded, s);
      if (hit) return hit;
    }
  }

  // a word only known at run time ($(...), an unset variable): a writer next to a protected name is enough
  if (seg.dynamic && (REMOVERS.has(program) || FILE_WRITERS.has(program) || COPIERS.has(program))) {
    for (const m of s.text.matchAll(MENTION)) {
      const found = hits(m[0], s, 'dir');
      if (found) return found;
    }
  }
  return undefined;
}

function copyHit(args: string[], s: Scope): string | undefined {
  const paths = pathArgs(args);
  const t = args.findIndex((a) => a === '-t' || a === '--target-directory');
  const targetFlag = args.find((a) => a.startsWith('--target-directory='));
  const dest = t !== -1 ? args[t + 1] : targetFlag ? targetFlag.slice(targetFlag.indexOf('=') + 1) : paths.at(-1);
  if (dest === undefined) return undefined;
  const hit = hits(dest, s, 'file');
  if (hit) return hit;
  // `cp -r x/.claude ~`, `cp x settings.json .claude/`: what changes is the source's name inside the folder
  const into = resolvePath(dest, s.ctx, s.cwd, s.windows);
  const places = anchors(s.ctx, s.cwd);
  for (const src of paths.filter((p) => p !== dest)) {
    const landed = posix.join(into, base(src.replace(/\/+$/, '')));
    if (isProtectedFile(landed, s.ctx) || places.some((a) => a === landed || a.startsWith(landed + '/'))) return landed;
  }
  return undefined;
}

const GIT_WRITES = /^(?:checkout|restore|rm|mv|reset|stash|clean|apply|update-index)$/;

function gitHit(args: string[], s: Scope): string | undefined {
  const scope = { ...s };
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    if (args[i] === '-C') scope.cwd = resolvePath(args[++i] ?? '.', s.ctx, s.cwd, s.windows);
    else if (args[i] === '-c') i++;
  }
  const sub = args[i];
  if (!sub || !GIT_WRITES.test(sub)) return undefined;
  const rest = args.slice(i + 1);
  if (sub === 'clean' && rest.some((a) => /^-[a-zA-Z]*[xX]/.test(a))) return posix.join(scope.cwd ?? '.', '.claude/settings.local.json');
  // `git checkout .` reverts the whole tree, an uncommitted install included: README "Threat model"
  return firstHit(pathArgs(rest), scope, 'dir');
}

/** Names a `find -name` pattern must not be allowed to delete. */
const PROTECTED_NAMES = ['settings.json', 'settings.local.json', 'hooks.json', 'config.toml', 'managed-settings.json', '.claude', '.codex', '.gemini', '.cursor', '.stallguard', '.stallguard.json'];

function namePattern(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
}

function findHit(args: string[], s: Scope): string | undefined {
  const expr = args.findIndex((a) => /^[-(!]/.test(a));
  const roots = expr === -1 ? args : args.slice(0, expr);
  const rest = expr === -1 ? [] : args.slice(expr);
  if (!rest.some((a) => /^-(?:delete|exec|execdir|ok|okdir|fprint\w*)$/.test(a))) return undefined;
  const hit = firstHit(roots.length > 0 ? roots : ['.'], s, 'dir');
  if (hit) return hit;
  for (let j = 0; j < rest.length; j++) {
    const pattern = rest[j + 1];
    if (/^-(?:i?name|i?path|i?wholename)$/.test(rest[j]!) && pattern !== undefined) {
      const re = namePattern(pattern.replace(/^.*\//, ''));
      if (PROTECTED_NAMES.some((n) => re.test(n))) return pattern;
    }
    if (/^-(?:exec|execdir|ok|okdir)$/.test(rest[j]!)) {
      const end = rest.findIndex((a, n) => n > j && (a === ';' || a === '+'));
      const inner = rest.slice(j + 1, end === -1 ? undefined : end).filter((w) => w !== '{}');
      const innerHit = checkSimple(inner, { words: inner, writes: [], stdin: [], pipeline: -1, dynamic: false }, undefined, s, []);
      if (innerHit) return innerHit;
    }
  }
  return undefined;
}

/** `tar -C dir`, `unzip -d dir`, `7z x -odir`: an archive unpacked into a protected folder. */
function extractHit(args: string[], s: Scope): string | undefined {
  for (let j = 0; j < args.length; j++) {
    const a = args[j]!;
    const dir = a === '-C' || a === '-d' || a === '--directory' ? args[j + 1] : a.startsWith('--directory=') ? a.slice(12) : /^-o./.test(a) ? a.slice(2) : undefined;
    if (dir !== undefined) {
      const hit = hits(dir, s, 'dir');
      if (hit) return hit;
    }
  }
  return undefined;
}

/** `curl -o file`, `wget -O file`: a download written over a protected file. */
function downloadHit(args: string[], s: Scope): string | undefined {
  for (let j = 0; j < args.length; j++) {
    const a = args[j]!;
    const out = /^(?:-o|-O|--output|--output-document|--out)$/.test(a) ? args[j + 1] : /^--(?:output|output-document|out)=/.test(a) ? a.slice(a.indexOf('=') + 1) : undefined;
    if (out !== undefined) {
      const hit = hits(out, s, 'file');
      if (hit) return hit;
    }
  }
  return undefined;
}

const PACKAGE_MANAGERS = new Set(['stallguard', 'npx', 'npm', 'pnpm', 'yarn', 'bun', 'bunx', 'claude', 'gemini', 'codex', 'copilot', 'cursor-agent', 'node']);
const REMOVE_WORDS = /^(?:uninstall|remove|rm|un|r|unlink|disable|delete|erase)$/;

/** `stallguard uninstall`, `npm rm -g stallguard`, `claude plugin disable stallguard`, `gemini extensions uninstall stallguard`. */
function uninstallsStallguard(program: string, args: string[]): boolean {
  if (!PACKAGE_MANAGERS.has(program)) return false;
  const names = program === 'stallguard' || args.some((a) => /stallguard/i.test(a));
  return names && args.some((a) => REMOVE_WORDS.test(a.toLowerCase()));
}

/** The protected place a shell command would change, or undefined. */
export function shellHit(command: string, ctx: GuardContext, windows = false): string | undefined {
  return check(command, { ctx, cwd: ctx.cwd, vars: new Map(), windows, depth: 0, text: command });
}

/** Whether new content for a shell's startup file would set STALLGUARD_MODE/HOME or turn hooks off for later sessions. */
export function startupFileHit(abs: string, content: string): boolean {
  return STARTUP_FILE.test(abs) && switchHit(content) !== undefined;
}
