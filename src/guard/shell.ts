import { posix } from 'node:path';
import { HOLE, lexShell, type Simple } from '../shell/lex.ts';
import { codeHit, switchHit } from './code.ts';
import { globMatcher } from './glob.ts';
import { anchors, resolvePath, under } from './paths.ts';
import { type GuardContext, nowOf } from './context.ts';
import { fileFound, type Found, treeFound } from './reach.ts';
import { firstHit, hits, type Scope, substitute } from './words.ts';
import { anyOf, regex } from '../core/regex.ts';

// Whether a shell command would switch stallguard off: write, move, delete or re-permission one of its own
// files or a settings file that holds its entries (by redirection, a file tool, an editor, an in-place edit,
// git, an archive, a download, an interpreter's one-liner or a nested shell), remove a folder that holds
// one, set STALLGUARD_MODE or STALLGUARD_HOME, turn hooks off, or uninstall stallguard. Reading those
// files, copying from them, unstaging them and searching beside them is not. What it cannot see: a script
// written now and run later, code read from a file, text that only exists at run time (README "Threat model").

/** Programs that write the file they are given, whatever its name. */
const FILE_WRITERS = new Set([
  'touch',
  'truncate',
  'tee',
  'sponge',
  'patch',
  'vi',
  'vim',
  'nvim',
  'view',
  'nano',
  'pico',
  'emacs',
  'emacsclient',
  'ed',
  'ex',
  'code',
  'subl',
  'micro',
  'joe',
  'mcedit',
  'kak',
  'hx',
  'helix',
  'mkfifo',
]);
/** Programs that remove, move or re-permission what they are given: a folder holding a protected place counts too. */
const REMOVERS = new Set([
  'rm',
  'rmdir',
  'unlink',
  'shred',
  'srm',
  'trash',
  'trash-put',
  'mv',
  'rename',
  'chmod',
  'chown',
  'chgrp',
  'chattr',
  'setfacl',
]);
/** Programs that write onto their last argument (or -t folder): copies, and links made over a name. */
const COPIERS = new Set(['cp', 'install', 'rsync', 'scp', 'ditto', 'ln', 'link']);
/** PowerShell's file cmdlets and their aliases, lower-cased. */
const POWERSHELL = new Set([
  'set-content',
  'add-content',
  'out-file',
  'remove-item',
  'move-item',
  'copy-item',
  'new-item',
  'clear-content',
  'rename-item',
  'set-itemproperty',
  'del',
  'erase',
  'ri',
  'mi',
  'cpi',
  'ni',
  'sc',
  'ac',
  'move',
  'copy',
  'ren',
  'rd',
]);
const SHELLS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'fish',
  'ash',
  'busybox',
  'pwsh',
  'powershell',
  'cmd',
]);
const INTERPRETERS = regex(
  '',
  '^',
  anyOf(
    /python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|perl|ruby|php[\d.]*|lua[\d.]*|luajit|r/,
    /rscript|osascript|tclsh|awk|gawk|mawk|nawk|julia|groovy|kotlin|scala|elixir|erl/,
    /swift|tsx|ts-node/,
  ),
  '$',
);
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
  // biome-ignore lint/suspicious/noThenProperty: the shell's `then`, a word of this table of words; never awaited
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

/** A shell's one-liner runs as a command of its own; an interpreter's is checked as code. */
function runCode(program: string, code: string, s: Scope): Found | undefined {
  if (SHELLS.has(program))
    return s.depth < 4
      ? check(code, { ...s, depth: s.depth + 1, windows: s.windows || program === 'pwsh' || program === 'powershell' })
      : codeHit(code, s);
  return codeHit(code, s);
}

/** What a command's stdin will be, when the text says: a here-document, a here-string, `echo ... |`, `base64 -d`. */
function stdinOf(seg: Simple, before: Simple | undefined): string | undefined {
  if (seg.stdin.length > 0) return seg.stdin.join('\n');
  if (!before || before.pipeline !== seg.pipeline) return undefined;
  const verb = base(before.words[0] ?? '');
  if (verb === 'echo' || verb === 'printf')
    return before.words
      .slice(1)
      .filter((w) => !/^-[neE]+$/.test(w))
      .join(' ')
      .replace(/\\n/g, '\n');
  if (verb === 'cat' && before.words.length === 1) return before.stdin.join('\n');
  return undefined;
}

function decodeBase64(text: string): string {
  return [...text.matchAll(/[A-Za-z0-9+/]{8,}={0,2}/g)]
    .map((m) => Buffer.from(m[0], 'base64').toString('utf8'))
    .join('\n');
}

/** Every simple command of the text, in order, with `cd` moving the folder later paths resolve against. */
function check(text: string, outer: Scope): Found | undefined {
  const off = switchHit(text);
  if (off) return off;
  const s: Scope = { ...outer, vars: new Map(outer.vars), text };
  const segs = lexShell(text, s.windows);
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    for (const target of seg.writes) {
      const hit = hits(target, s, 'file', seg.globs);
      if (hit) return hit;
    }
    const words = seg.words;
    let k = 0;
    let viaXargs = false;
    while (k < words.length) {
      const assignment = /^([A-Za-z_]\w*)=(.*)$/s.exec(words[k]!);
      if (assignment) {
        s.vars.set(assignment[1]!, substitute(assignment[2]!, s.vars));
        k++;
        continue;
      }
      const verb = base(substitute(words[k]!, s.vars));
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
        if (verb === 'env' && /^(?:-C|--chdir)$/.test(words[k]!))
          s.cwd = resolvePath(words[k + 1] ?? '.', s.ctx, s.cwd, s.windows);
        if (takesValue?.test(words[k]!)) k++;
      }
    }
    const hit = checkSimple(
      words.slice(k),
      seg,
      segs[i - 1],
      s,
      viaXargs ? segs.filter((x) => x.pipeline === seg.pipeline && x !== seg) : [],
    );
    if (hit) return hit;
  }
  return undefined;
}

/** Whether the program writes, moves or removes the files it is given. */
function changesItsFiles(program: string, args: string[]): boolean {
  return (
    REMOVERS.has(program) ||
    FILE_WRITERS.has(program) ||
    COPIERS.has(program) ||
    POWERSHELL.has(program) ||
    program === 'dd' ||
    (/^(?:sed|perl|ruby)$/.test(program) && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith('--in-place')))
  );
}

function checkSimple(
  words: string[],
  seg: Simple,
  before: Simple | undefined,
  s: Scope,
  xargsFeed: Simple[],
): Found | undefined {
  if (words.length === 0) return undefined;
  const program = base(substitute(words[0]!, s.vars))
    .toLowerCase()
    .replace(/\.exe$/, '');
  const args = words.slice(1);
  const paths = pathArgs(args);
  const globs = seg.globs;

  if (program === 'cd' || program === 'pushd' || program === 'set-location' || program === 'sl') {
    const to = paths[0] === undefined ? undefined : substitute(paths[0], s.vars);
    s.cwd =
      to === undefined
        ? (s.ctx.home ?? s.cwd)
        : to === '-'
          ? s.cwd
          : to.includes(HOLE)
            ? undefined
            : resolvePath(to, s.ctx, s.cwd, s.windows);
    return undefined;
  }
  // `... | xargs rm`: the names come from the rest of the pipeline
  if (xargsFeed.length > 0 && changesItsFiles(program, args)) {
    for (const x of xargsFeed) {
      const hit = firstHit(pathArgs(x.words.slice(1)), s, 'dir', x.globs);
      if (hit) return hit;
    }
  }
  if (uninstallsStallguard(program, args) || removesWith(ownCliArgs(words, s)))
    return { kind: 'uninstall', path: 'stallguard', command: words.join(' ').slice(0, 300) };

  let hit: Found | undefined;
  if (REMOVERS.has(program)) hit = firstHit(paths, s, 'tree', globs);
  else if (FILE_WRITERS.has(program)) hit = firstHit(paths, s, 'file', globs);
  else if (program === 'dd')
    hit = firstHit(
      args.filter((a) => a.startsWith('of=')).map((a) => a.slice(3)),
      s,
      'file',
      globs,
    );
  else if (COPIERS.has(program)) hit = copyHit(args, s, globs);
  else if (POWERSHELL.has(program))
    hit = firstHit(paths, s, program.startsWith('copy') || program === 'cpi' ? 'dir' : 'tree', globs);
  else if (program === 'sed' || program === 'perl' || program === 'ruby') {
    if (changesItsFiles(program, args)) hit = firstHit(paths, s, 'file', globs);
  } else if (/^g?awk$/.test(program) && args.some((a, j) => a === 'inplace' && args[j - 1] === '-i'))
    hit = firstHit(paths, s, 'file', globs);
  else if (program === 'git') hit = gitHit(args, s, globs);
  else if (program === 'find') hit = findHit(args, s, globs);
  else if (program === 'tar' || program === 'unzip' || program === 'bsdtar' || program === '7z')
    hit = extractHit(args, s);
  else if (program === 'curl' || program === 'wget' || program === 'aria2c' || program === 'http' || program === 'xh')
    hit = downloadHit(args, s);
  else if (program === 'eval') hit = runCode('sh', args.join(' '), s);
  if (hit) return hit;

  if (SHELLS.has(program) || INTERPRETERS.test(program)) {
    const flag = args.findIndex(
      (a) => /^(?:-c|-e|-E|-p|-r|--eval|--print|-Command|\/c)$/i.test(a) || /^-[a-zA-Z]*[ce]$/.test(a),
    );
    const powershell = program === 'pwsh' || program === 'powershell' || program === 'cmd';
    // awk's program is its first word that is not a flag
    const code =
      flag !== -1
        ? powershell
          ? args.slice(flag + 1).join(' ')
          : args[flag + 1]
        : /awk$/.test(program) && !args.includes('-f')
          ? args.find((a) => !a.startsWith('-'))
          : undefined;
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
    if (
      before &&
      before.pipeline === seg.pipeline &&
      base(before.words[0] ?? '') === 'base64' &&
      before.words.some((w) => /^(?:-d|-D|--decode)$/.test(w))
    ) {
      const encoded = stdinOf(before, undefined) ?? '';
      const decoded = decodeBase64(encoded) || decodeBase64(s.text);
      hit = runCode(program, decoded, s);
      if (hit) return hit;
    }
  }
  return undefined;
}

function copyHit(args: string[], s: Scope, globs: Map<string, string>): Found | undefined {
  const paths = pathArgs(args);
  const t = args.findIndex((a) => a === '-t' || a === '--target-directory');
  const targetFlag = args.find((a) => a.startsWith('--target-directory='));
  const dest =
    t !== -1
      ? args[t + 1]
      : targetFlag
        ? targetFlag.slice(targetFlag.indexOf('=') + 1)
        : paths.length > 1
          ? paths.at(-1)
          : undefined;
  if (dest === undefined) return undefined;
  const hit = hits(dest, s, 'file', globs);
  if (hit) return hit;
  if (substitute(dest, s.vars).includes(HOLE)) return undefined;
  // `cp -r x/.claude ~`, `cp x settings.json .claude/`: what changes is the source's name inside the folder
  const into = resolvePath(substitute(dest, s.vars), s.ctx, s.cwd, s.windows);
  for (const src of paths.filter((p) => p !== dest)) {
    const landed = posix.join(into, base(substitute(src, s.vars).replace(/\/+$/, '')));
    if (landed.includes(HOLE)) continue;
    const found = fileFound(landed, s.ctx) ?? treeFound(landed, s.ctx, s.cwd);
    if (found) return found;
  }
  return undefined;
}

/** git subcommands that write files of the working tree (or, for rm --cached, take them out of the repository). */
const GIT_WRITES = /^(?:checkout|restore|rm|mv|stash|clean|apply|update-index)$/;

function gitHit(args: string[], s: Scope, globs: Map<string, string>): Found | undefined {
  const scope = { ...s };
  let i = 0;
  for (; i < args.length && args[i]!.startsWith('-'); i++) {
    if (args[i] === '-C') scope.cwd = resolvePath(args[++i] ?? '.', s.ctx, s.cwd, s.windows);
    else if (args[i] === '-c') i++;
  }
  const sub = args[i];
  if (!sub || !GIT_WRITES.test(sub)) return undefined;
  const rest = args.slice(i + 1);
  // `git restore --staged x` unstages: the file itself stays as it is
  if (
    sub === 'restore' &&
    rest.some((a) => a === '--staged' || /^-[a-zA-Z]*S/.test(a)) &&
    !rest.some((a) => a === '--worktree' || /^-[a-zA-Z]*W/.test(a))
  )
    return undefined;
  if (sub === 'clean' && rest.some((a) => /^-[a-zA-Z]*[xX]/.test(a)))
    return fileFound(posix.join(scope.cwd ?? '.', '.claude/settings.local.json'), s.ctx);
  // `git checkout .` reverts the whole tree, an uncommitted install included: README "Threat model"
  return firstHit(pathArgs(rest), scope, 'dir', globs);
}

/** `find ROOTS EXPR`: what it deletes, what its -exec commands change, what -fprint writes. */
function findHit(args: string[], s: Scope, globs: Map<string, string>): Found | undefined {
  const expr = args.findIndex((a) => /^[-(!]/.test(a));
  const roots = expr === -1 ? args : args.slice(0, expr);
  const rest = expr === -1 ? [] : args.slice(expr);
  let destructive = rest.includes('-delete');
  for (let j = 0; j < rest.length; j++) {
    if (/^-fprint/.test(rest[j]!) && rest[j + 1] !== undefined) {
      const hit = hits(rest[j + 1]!, s, 'file', globs);
      if (hit) return hit;
    }
    if (!/^-(?:exec|execdir|ok|okdir)$/.test(rest[j]!)) continue;
    const end = rest.findIndex((a, n) => n > j && (a === ';' || a === '+'));
    const inner = rest.slice(j + 1, end === -1 ? undefined : end);
    const named = inner.filter((w) => w !== '{}');
    const innerHit = checkSimple(
      named,
      { words: named, writes: [], stdin: [], pipeline: -1, dynamic: false, nested: false, globs },
      undefined,
      s,
      [],
    );
    if (innerHit) return innerHit;
    const program = base(inner[0] ?? '').toLowerCase();
    // a command that changes the files find hands it; `sh -c '...' {}` may
    if (
      inner.includes('{}') &&
      (changesItsFiles(program, inner.slice(1)) || SHELLS.has(program) || INTERPRETERS.test(program))
    )
      destructive = true;
  }
  if (!destructive) return undefined;
  // the protected places under the roots that the name tests let through (negations and -path: all of them)
  const names: { pattern: string; nocase: boolean }[] = [];
  for (let j = 0; j < rest.length; j++)
    if (/^-i?name$/.test(rest[j]!) && rest[j + 1] !== undefined)
      names.push({ pattern: rest[j + 1]!, nocase: rest[j] === '-iname' });
  const filtered =
    names.length > 0 && !rest.some((a) => a === '!' || a === '-not' || /^-i?(?:path|wholename|regex)$/.test(a));
  const matchers = names.map((n) => globMatcher(n.nocase ? n.pattern.toLowerCase() : n.pattern));
  const rootPaths = (roots.length > 0 ? roots : ['.']).map((r) =>
    resolvePath(substitute(r, s.vars), s.ctx, s.cwd, s.windows),
  );
  for (const a of anchors(s.ctx, s.cwd)) {
    if (!rootPaths.some((r) => under(a, r))) continue;
    const name = posix.basename(a);
    if (filtered && !matchers.some((m, n) => m(names[n]!.nocase ? name.toLowerCase() : name))) continue;
    if ('none' in nowOf(a, s.ctx)) continue;
    const hit = fileFound(a, s.ctx);
    if (hit) return hit;
  }
  for (const r of rootPaths) {
    const hit = fileFound(r, s.ctx);
    if (hit) return hit;
  }
  return undefined;
}

/** `tar -C dir`, `unzip -d dir`, `7z x -odir`: an archive unpacked into a protected folder. */
function extractHit(args: string[], s: Scope): Found | undefined {
  for (let j = 0; j < args.length; j++) {
    const a = args[j]!;
    const dir =
      a === '-C' || a === '-d' || a === '--directory'
        ? args[j + 1]
        : a.startsWith('--directory=')
          ? a.slice(12)
          : /^-o./.test(a)
            ? a.slice(2)
            : undefined;
    if (dir !== undefined) {
      const hit = hits(dir, s, 'dir');
      if (hit) return hit;
    }
  }
  return undefined;
}

/** `curl -o file`, `wget -O file`: a download written over a protected file. */
function downloadHit(args: string[], s: Scope): Found | undefined {
  for (let j = 0; j < args.length; j++) {
    const a = args[j]!;
    const out = /^(?:-o|-O|--output|--output-document|--out)$/.test(a)
      ? args[j + 1]
      : /^--(?:output|output-document|out)=/.test(a)
        ? a.slice(a.indexOf('=') + 1)
        : undefined;
    if (out !== undefined) {
      const hit = hits(out, s, 'file');
      if (hit) return hit;
    }
  }
  return undefined;
}

const PACKAGE_MANAGERS = new Set([
  'stallguard',
  'npx',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'bunx',
  'claude',
  'gemini',
  'codex',
  'copilot',
  'cursor-agent',
  'node',
]);
const REMOVE_WORDS = /^(?:uninstall|remove|rm|un|r|unlink|disable|delete|erase)$/;

/**
 * `stallguard uninstall`, `npm rm -g stallguard`,
 * `claude plugin disable stallguard`, `gemini extensions uninstall stallguard`.
 */
function uninstallsStallguard(program: string, args: string[]): boolean {
  if (!PACKAGE_MANAGERS.has(program)) return false;
  const names = program === 'stallguard' || args.some((a) => /stallguard/i.test(a));
  return names && args.some((a) => REMOVE_WORDS.test(a.toLowerCase()));
}

const SCRIPT_RUNNERS = new Set(['node', 'nodejs', 'bun']);
/** Flags of node that take the next word as their value, which is then not the script. */
const RUNNER_VALUE_FLAGS = /^(?:-r|--require|--import|--loader|--experimental-loader|-C|--conditions)$/;

/**
 * The installed CLI known by its path, whatever it is named or linked as: the package's dist/cli.js beside
 * the hook bundle, as the program (`/opt/tools/sg/dist/cli.js uninstall`, `~/bin/sg` linked to it) or as the
 * script node runs (`node ./dist/cli.js uninstall`). The words after it, or undefined when the command does
 * not run it.
 */
function ownCliArgs(words: string[], s: Scope): string[] | undefined {
  if (!s.ctx.selfDir) return undefined;
  const cli = posix.join(s.ctx.selfDir, 'cli.js');
  const real = (abs: string) => s.ctx.realpath?.(abs) ?? abs;
  const isCli = (word: string) => {
    const w = substitute(word, s.vars);
    if (w.includes(HOLE)) return false;
    const abs = resolvePath(w, s.ctx, s.cwd, s.windows);
    // a relative path where the working folder is not known (after `cd $X`) names nothing for certain
    return abs.startsWith('/') && (abs === cli || real(abs) === real(cli));
  };
  // a program word without a slash is looked up on PATH: the name check (stallguard) is the one for it
  if (/[/\\]/.test(words[0]!)) return isCli(words[0]!) ? words.slice(1) : undefined;
  if (!SCRIPT_RUNNERS.has(base(words[0]!).toLowerCase())) return undefined;
  for (let i = 1; i < words.length; i++) {
    const w = words[i]!;
    if (/^(?:-e|-p|--eval|--print)(?:=|$)/.test(w)) return undefined;
    if (RUNNER_VALUE_FLAGS.test(w)) i++;
    else if (!w.startsWith('-')) return isCli(w) ? words.slice(i + 1) : undefined;
  }
  return undefined;
}

function removesWith(args: string[] | undefined): boolean {
  return !!args && args.some((a) => REMOVE_WORDS.test(a.toLowerCase()));
}

/** What of stallguard's a shell command would change or switch off, or undefined. */
export function shellHit(command: string, ctx: GuardContext, windows = false): Found | undefined {
  return check(command, { ctx, cwd: ctx.cwd, vars: new Map(), windows, depth: 0, text: command });
}
