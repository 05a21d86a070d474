import type { CallFacts, ToolCall, ToolClass } from '../types.ts';
import { callFields, callPath, REPLACEMENT_FIELDS } from './call-fields.ts';
import { lexShell, type Simple } from '../shell/lex.ts';
import { anyOf, either, hinted, regex } from './regex.ts';
import { lettersAndDigits } from './plain-ascii.ts';
import { type WordSet, wordSet } from './word-set.ts';

// What kind of work a call is. Signals need it: a failing test re-run with no edit in between is a retry,
// a read after an edit is not a re-read, a spawn is counted. The agent's adapter says what its tools do
// (CallFacts); shell commands are classified here by what they run, since bash-only agents do all their
// work through one tool, and the shell is the one language every agent shares.

/** `python`, `python3`, `python3.12`: the one pattern among the names of runners and interpreters. */
const PYTHON = /^python\d?(?:\.\d+)?$/;
/** A test script by its name: `run_tests.py`, `test.sh`. */
const TEST_SCRIPT = /^\w*tests?\.(?:py|sh)$/;
/** Names, and the two patterns asked only of a name that could match them (see wordSet for why). */
function namesOr(names: string, ...patterns: ('python' | 'test script')[]): WordSet {
  const set = wordSet(names);
  const python = patterns.includes('python');
  const script = patterns.includes('test script');
  return {
    test: (word) =>
      set.test(word) ||
      (python && word.startsWith('python') && PYTHON.test(word)) ||
      (script && (word.endsWith('.py') || word.endsWith('.sh')) && TEST_SCRIPT.test(word)),
  };
}

const TEST_RUNNER = namesOr(
  'pytest py.test tox nox jest vitest mocha ava tap phpunit rspec ctest tsc eslint ' +
    'ruff flake8 pylint mypy pyright black prettier biome oxlint clippy cargo-nextest ' +
    'gradle gradlew mvn ant bazel buck sbt dotnet swift zig gcc g++ clang javac rustc ' +
    'go cargo make ninja cmake npm npx pnpm yarn bun deno node uv ' +
    'poetry django-admin sphinx-build run.sh',
  'python',
  'test script',
);
/** Runners that are verification whatever their arguments. */
const ALWAYS_TEST = namesOr(
  'pytest py.test tox nox jest vitest mocha tsc eslint ruff flake8 pylint mypy pyright run.sh',
  'test script',
);
const TEST_ARGS = hinted(
  regex(
    'i',
    /\b/,
    anyOf(
      /test|tests|check|build|lint|typecheck|type-check|spec|compile|verify|pytest|unittest/,
      /nextest|clippy|vet|runtests|repro\w*|reproduc\w*|bench|assemble\w*/,
    ),
    /\b/,
  ),
  ['test', 'check', 'build', 'lint', 'spec', 'compile', 'verify', 'clippy', 'vet', 'repro', 'bench', 'assemble'],
);
const READERS = wordSet(
  'cat head tail less more nl bat wc file stat xxd od hexdump diff cmp tree ls dir pwd ' +
    'du df free lsblk findmnt uname whoami hostname printenv ' +
    'jq get-content gc type get-childitem gci',
  true,
);
/** git's subcommands that only look: the others (add, commit, push, pull, merge, ...) do something. */
const GIT_READS = wordSet(
  'status diff show rev-parse ls-files ls-tree ls-remote blame describe reflog shortlog cat-file whatchanged',
);

/**
 * Whether a git command only looks: `git branch` lists but
 * `git branch -M main` renames, `git remote -v` but not `git remote add`.
 */
function gitLooks(args: readonly string[]): boolean {
  const [sub = '', ...rest] = args;
  if (GIT_READS.test(sub)) return true;
  if (sub === 'branch' || sub === 'tag')
    return rest.every((a) =>
      /^(?:-a|-r|-v|-vv|--all|--list|-l|--show-current|--contains|--merged|--no-merged)$/.test(a),
    );
  if (sub === 'remote')
    return rest.length === 0 || rest.every((a) => a === '-v') || rest[0] === 'show' || rest[0] === 'get-url';
  if (sub === 'config')
    return (
      rest.some((a) => /^(?:--get|--get-all|--list|-l)$/.test(a)) || rest.filter((a) => !a.startsWith('-')).length <= 1
    );
  if (sub === 'stash') return rest[0] === 'list' || rest[0] === 'show';
  return false;
}
/** Programs that only pass on, cut or count what the command before them in a pipeline printed. */
const FILTERS = wordSet(
  'head tail sort uniq wc cut tr column nl less more cat jq sed awk fold fmt expand ' +
    'select-object sort-object format-table out-string',
  true,
);
const SEARCHERS = wordSet(
  'grep egrep fgrep rg ag ack find fd locate which whereis where findstr select-string sls',
  true,
);
const POLLERS = wordSet('sleep wait watch start-sleep', true);
/** Programs that ask a server how it is (`curl -s localhost:3000/health`): after a wait, asking is polling. */
const PROBES = wordSet('curl wget http https xh nc invoke-webrequest iwr invoke-restmethod irm', true);
/** An address a probe asks for: a read of that page (`curl -s localhost:3000/health`). */
export const PAGE_ADDRESS = /^(?:https?:\/\/|localhost\b|127\.)/i;
/** A probe's arguments that send something: a request that changes state, not a question. */
const SENDS = /^(?:-d|--data\S*|-F|--form|-T|--upload-file|-X|--request|--post-\S+|-Method)$/i;
/** Commands that ask how something elsewhere is getting on: a CI run, a cluster, containers, a service. */
const POLL_SUBCOMMAND = hinted(
  new RegExp(
    String.raw`^(?:gh (?:run|pr) (?:view|watch|checks|list|status)|kubectl (?:get|describe|rollout status|wait)|` +
      String.raw`docker (?:compose )?(?:ps|logs)|systemctl (?:status|is-active)|pm2 (?:status|list|ls))\b`,
  ),
  ['gh ', 'kubectl ', 'docker ', 'systemctl ', 'pm2 '],
);
const WRITERS = wordSet(
  'rm mv cp touch ln chmod chown truncate patch install dd tee unzip tar set-content ' +
    'add-content out-file new-item remove-item copy-item move-item',
  true,
);
/** Writes that change no code: git's own files (a lock), scratch folders. */
const NOT_CODE = /(?:^|[/\\])\.git[/\\]|^(?:\/tmp|\/var\/tmp|\$env:TEMP|%TEMP%)[/\\]/i;
const WRAPPERS = wordSet('sudo env time nohup exec command builtin xargs export nice stdbuf');
/** Runners that fetch a program and run it: `npx tsc`, `bunx vitest`, `uvx ruff`. */
const RUNNERS = wordSet('npx bunx pnpx uvx');
const SHELLS = wordSet('bash sh zsh dash ksh');
/** PowerShell, whose escape character is the backtick and whose paths hold backslashes: cmdlets and $variables. */
const POWERSHELL_VERBS = 'Get Set New Remove Select Where ForEach Out Add Test Write Copy Move Invoke Start Stop';
const POWERSHELL = hinted(
  either(
    'm',
    regex('', /\b/, `(?:${POWERSHELL_VERBS.split(' ').join('|')})`, /-[A-Z][A-Za-z]+\b/),
    /^\s*\$\w+\s*=|\[(?:System\.)?IO\.File\]::/,
  ),
  [...POWERSHELL_VERBS.split(' ').map((verb) => `${verb}-`), '$', 'IO.File]::'],
);
/** Writes a PowerShell script does through .NET or cmdlets inside an expression. */
const POWERSHELL_WRITE = hinted(
  either(
    'i',
    /\b(?:Set-Content|Add-Content|Out-File|Remove-Item|Copy-Item|Move-Item)\b/,
    /\[(?:System\.)?IO\.File\]::(?:Write|Append|Delete|Copy|Move)/,
  ),
  ['set-content', 'add-content', 'out-file', 'remove-item', 'copy-item', 'move-item', 'io.file]::'],
);
/** Output captured in a log or scratch file, or sent to a device (Windows' `nul` too), is not a change to the code. */
const CAPTURE = /^\/dev\/|\.(?:txt|log|out)$|^\/tmp\/|^\$null$|^nul$/i;

export interface CallShape {
  cls: ToolClass;
  /** The file or folder the call is about, relative where possible. */
  target?: string;
  /** What region of the target a read covered (range arguments). */
  range?: string;
  /** The content of an edit, as text to digest. */
  change?: string;
  /** What a search looks for: its pattern, query or the name it looks up. */
  term?: string;
  /**
   * The command hands an interpreter code of its own (`python -c`, `node -e`,
   * a here-document on stdin): a syntax error in it is a malformed call.
   */
  inline?: boolean;
  /**
   * For an edit that says what it replaces: the text before and after (old and new strings, a patch's - and + lines).
   */
  before?: string;
  after?: string;
  /**
   * What a shell command acts on, each program it runs with its object (`pm2 nextjs-saa`, `nvm #`,
   * `verify-plugin.sh`), seen through wrappers, shells, flags and quoting: the same intent spelled another way.
   */
  intents?: string[];
  /** The programs a shell command runs, for a program that is not there at all however it is called. */
  programs?: string[];
  /** A shell command without the shells it is handed to (`bash -lc '...'`, `cmd /c ...`): what it runs. */
  script?: string;
}

function replacement(o: Record<string, unknown>): { before: string; after: string } | undefined {
  for (const [b, a] of REPLACEMENT_FIELDS) {
    const before = o[b];
    const after = o[a];
    if (typeof before === 'string' && typeof after === 'string') return { before, after };
  }
  return undefined;
}

/**
 * What an edit replaces and with what, where its arguments say: an edit's
 * old and new text, several edits, or the patch its dialect found.
 */
function beforeAfter(
  o: Record<string, unknown>,
  patch: string | undefined,
): { before: string; after: string } | undefined {
  const pair = replacement(o);
  if (pair) return pair;
  if (Array.isArray(o.edits)) {
    const edits = o.edits.map((e) =>
      e && typeof e === 'object' ? replacement(e as Record<string, unknown>) : undefined,
    );
    if (edits.length > 0 && edits.every((e) => e !== undefined))
      return { before: edits.map((e) => e!.before).join('\u0000'), after: edits.map((e) => e!.after).join('\u0000') };
  }
  if (patch !== undefined) {
    const lines = patch.split('\n');
    const removed = lines.filter((l) => l.startsWith('-') && !l.startsWith('---')).map((l) => l.slice(1));
    const added = lines.filter((l) => l.startsWith('+') && !l.startsWith('+++')).map((l) => l.slice(1));
    return { before: removed.join('\n'), after: added.join('\n') };
  }
  return undefined;
}

/** `sed -i 's/old/new/g' file`: what the substitution replaces and with what. */
function sedSubstitution(words: readonly string[]): { before: string; after: string } | undefined {
  const script = words.find((w) => /^s(.).*\1.*\1[gIip0-9]*$/.test(w));
  if (!script) return undefined;
  const d = script[1]!;
  const parts = script.slice(2).split(d);
  return parts.length >= 3 ? { before: parts[0]!, after: parts[1]! } : undefined;
}

const RANK: Record<ToolClass, number> = {
  edit: 8,
  test: 7,
  spawn: 6,
  poll: 5,
  search: 4,
  read: 3,
  exec: 2,
  bookkeeping: 1,
  other: 0,
};

function base(word: string): string {
  return word.replace(/^.*[/\\]/, '') || word;
}

function lastPath(words: readonly string[]): string | undefined {
  for (let i = words.length - 1; i > 0; i--) {
    const w = words[i]!;
    if (!w.startsWith('-') && !/^\d+(,\d+)?p?$/.test(w) && (w.includes('/') || w.includes('.') || w.includes('\\')))
      return w;
  }
  return undefined;
}

/** A look's last plain word, where none reads as a path: the folder or file it looks at (`ls lib`, `cat Makefile`). */
function lastWord(words: readonly string[]): string | undefined {
  for (let i = words.length - 1; i > 0; i--)
    if (!words[i]!.startsWith('-') && !/^\d+$/.test(words[i]!)) return words[i];
  return undefined;
}

/**
 * Shells' words that open or go on with a compound command (`if`, `then`, `do`, PowerShell's `try {`): the
 * command that follows them is what runs. `for f in *.ts; do sed -i ... "$f"; done` edits; its `do` is no program.
 */
const KEYWORDS = new Set([
  'if',
  'then',
  'elif',
  'else',
  'while',
  'until',
  'do',
  '!',
  'time',
  '{',
  '}',
  'try',
  'catch',
  'finally',
]);
/** Words that head or close a compound command and run nothing themselves: a loop's list, a case's word. */
const LOOP_HEADS = new Set(['for', 'foreach', 'select', 'case', 'switch', 'done', 'fi', 'esac', 'function']);

/** Wrappers' flags that take a value of their own: `sudo -u postgres psql`, `xargs -I {} kill`. */
const WRAPPER_VALUE_FLAGS: Record<string, readonly string[]> = {
  sudo: ['-u', '-g', '-C', '-D', '-h', '-p', '-r', '-t', '-U'],
  env: ['-u', '-C', '-S'],
  xargs: ['-I', '-n', '-P', '-L', '-d', '-s', '-E', '-a'],
  nice: ['-n'],
};

/**
 * The words of a simple command from its program on: assignments and wrappers (sudo, env, timeout 10), with
 * their flags, dropped. A command whose first word cannot be a program (a flag, punctuation, a PowerShell
 * value) runs none.
 */
function programWords(words: readonly string[]): string[] {
  let i = 0;
  while (i < words.length) {
    const w = words[i]!;
    if (LOOP_HEADS.has(w)) return [];
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || KEYWORDS.has(w)) i++;
    // `sudo -u postgres psql`; `npx vitest run`, `bunx tsc`: the runner fetches the program, the program runs
    else if (WRAPPERS.test(w) || (RUNNERS.test(base(w)) && i + 1 < words.length)) {
      const valued = WRAPPER_VALUE_FLAGS[base(w)] ?? [];
      i++;
      while (i < words.length - 1 && words[i]!.startsWith('-')) i += valued.includes(words[i]!) ? 2 : 1;
    }
    // PowerShell's `$path = "x"` sets a variable and runs nothing; `$date = Get-Date -Format x` runs Get-Date
    else if (/^\$[\w:]+$/.test(w) && words[i + 1] === '=') {
      if (i + 3 >= words.length) return [];
      i += 2;
    } else if (/^\$[\w:]+=./s.test(w)) {
      const value = w.slice(w.indexOf('=') + 1);
      return i + 1 >= words.length ? [] : [value, ...words.slice(i + 1)];
    } else if (w === 'timeout' && i + 1 < words.length) i += 2;
    else break;
  }
  const program = words[i];
  // a flag (what is left of a line after a PowerShell subexpression, `(Split-Path $p) -Force`), a script
  // block's brace, a here-string's text (`@'...'@ | Set-Content x`): no program
  if (program === undefined || program.startsWith('-') || /^@['"\n]/.test(program) || lettersAndDigits(program) === '')
    return [];
  return words.slice(i);
}

/** The script an interpreter is handed inline: `bash -lc '...'`, `powershell -Command "..."`, `cmd /c ...`. */
function inlineScript(verb: string, args: readonly string[]): string | undefined {
  const v = verb.toLowerCase().replace(/\.exe$/, '');
  const flag = SHELLS.test(v)
    ? args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a))
    : isPowerShell(v)
      ? args.findIndex((a) => /^-(?:c|command)$/i.test(a))
      : v === 'cmd'
        ? args.findIndex((a) => /^\/c$/i.test(a))
        : -1;
  return flag === -1 || flag + 1 >= args.length ? undefined : args.slice(flag + 1).join(' ');
}

/** Flags of search programs that take a value, which is not the pattern. */
const VALUE_FLAGS = regex(
  '',
  /^-/,
  anyOf(
    /[gtTmABCf]/,
    regex(
      '',
      /-/,
      anyOf(
        /glob|type|type-not|max-count|after-context|before-context|context|file/,
        /max-depth|maxdepth|include|exclude|exclude-dir/,
      ),
    ),
  ),
  '$',
);

/**
 * What a shell search looks for and where: `rg -n "foo" src`, `find . -name "*.ts"`, `Get-ChildItem -Path p -Filter x`.
 */
function shellSearch(verb: string, args: readonly string[]): { term?: string; target?: string } {
  const v = verb.toLowerCase();
  const named = (flags: RegExp) => {
    const i = args.findIndex((a) => flags.test(a));
    return i === -1 ? undefined : args[i + 1];
  };
  if (v === 'find') {
    const term = named(/^-(?:i?name|i?path|i?regex|wholename)$/);
    return {
      ...(term !== undefined ? { term } : {}),
      ...(args[0] && !args[0].startsWith('-') ? { target: args[0] } : {}),
    };
  }
  if (v === 'select-string' || v === 'sls' || v === 'get-childitem' || v === 'gci') {
    const term = named(/^-(?:pattern|filter|include)$/i);
    const target = named(/^-(?:path|literalpath)$/i) ?? args.find((a) => !a.startsWith('-'));
    return { ...(term !== undefined ? { term } : {}), ...(target !== undefined ? { target } : {}) };
  }
  const plain: string[] = [];
  let pattern: string | undefined;
  let glob: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-e' || a === '--regexp') pattern = args[++i];
    else if (/^-(?:g|-glob|-include)$/.test(a)) glob ??= args[++i];
    else if (VALUE_FLAGS.test(a)) i++;
    else if (!a.startsWith('-')) plain.push(a);
  }
  // `rg --files -g '*.toml'` looks for names: the glob is what it looks for
  const term = pattern ?? (args.includes('--files') ? glob : undefined) ?? plain.shift();
  const target = plain.length > 0 ? plain.join(' ') : undefined;
  return { ...(term !== undefined ? { term } : {}), ...(target !== undefined ? { target } : {}) };
}

function writeTarget(words: readonly string[]): string | undefined {
  const verb = base(words[0] ?? '').toLowerCase();
  // a folder made is no change to the code
  if (verb === 'new-item' && words.some((w, i) => /^-itemtype$/i.test(words[i - 1] ?? '') && /^directory$/i.test(w)))
    return undefined;
  if ((verb === 'sed' || verb === 'perl') && words.some((w) => /^-i/.test(w) || /^-pi/.test(w))) return lastPath(words);
  if (WRITERS.test(verb))
    return (
      lastPath(words) ??
      words
        .slice(1)
        .filter((w) => !w.startsWith('-'))
        .at(-1) ??
      '.'
    );
  if (
    verb === 'git' &&
    /^(?:checkout|restore|apply|am|stash|reset|revert|cherry-pick|mv|rm)$/.test(words[1] ?? '') &&
    !words.includes('--staged')
  )
    return lastPath(words) ?? '.';
  return undefined;
}

/** Interpreters whose object is the script they run: `bash x.sh`, `python tools/gen.py`, `node server.js`. */
const INTERPRETERS = namesOr(
  'py node deno bun tsx ts-node ruby perl php bash sh zsh dash ksh powershell pwsh',
  'python',
);
/** Interpreters that run code handed inline (`python -c`, `node -e`) or on stdin. */
const INLINE_INTERPRETERS = namesOr('node deno bun ruby perl', 'python');

/**
 * Whether an interpreter's flags, before its first other word, hand it code inline: `-c` or `-e`, alone or last
 * of one-letter flags run together (`perl -ne`, `perl -i -lane`, `node -pe`, `bash -lc`), node's `--eval`. Upper
 * case is another flag (`python -E` ignores the environment, `ruby -E` sets an encoding). PowerShell's parameters
 * are whole words in any case, so there only `-Command` (`-c`) and `-EncodedCommand` are: `-NoProfile` is none.
 */
function inlineCode(verb: string, args: readonly string[]): boolean {
  const powershell = isPowerShell(verb);
  for (const a of args) {
    if (!a.startsWith('-')) return false;
    if (powershell ? /^-(?:c|command|ec|encodedcommand)$/i.test(a) : /^-[a-zA-Z]*[ce]$/.test(a) || a === '--eval')
      return true;
  }
  return false;
}

/** Commands that say, set or wait, and act on nothing. */
const INERT = wordSet(
  'cd pushd popd set-location echo printf write-output write-host true false : set source . ' +
    '[ [[ test continue break return exit read export local declare readonly unset shift',
  true,
);

/**
 * One tool by other names, for what an intent acts through: Compose's first release (a program of its own) and
 * the docker plugin that replaced it; the package managers that run one package.json's installs and scripts.
 */
const SAME_TOOL: Readonly<Record<string, string>> = { 'docker-compose': 'docker', yarn: 'npm', pnpm: 'npm' };
/** git's commands on the whole repository: `git pull origin main` and `git pull --rebase` are one pull. */
const GIT_WHOLE = wordSet('pull push fetch', true);
/** pip by its Python's version: `pip3`, `pip3.12`. */
const PIP = /^pip\d?(?:\.\d+)?$/;

/** A program by its name, however the command spelled its path: `/usr/bin/git`, `C:\\tools\\adb.exe`. */
function programName(program: string): string {
  return base(program)
    .toLowerCase()
    .replace(/\.exe$/, '');
}

function sameTool(name: string): string {
  return SAME_TOOL[name] ?? (name.startsWith('pip') && PIP.test(name) ? 'pip' : name);
}

/** A URL's host and path (its query and fragment left out), with a scheme or, for this machine, without one. */
const ADDRESS =
  /^(?:[a-z]+:\/\/([^/?#\s]+)|((?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?::\d+)?)(?=[/?#]|$))([^?#]*)/i;
/** This machine by any of its names: `127.0.0.1:8080` is `localhost:8080`. */
const LOOPBACK = /^(?:127\.0\.0\.1|0\.0\.0\.0|\[::1\])(?=:|$)/;

/** A word as an address: its host and path, this machine by one name (as httpie's `:8080/items` means it). */
function addressOf(word: string): string | undefined {
  const m = ADDRESS.exec(/^:\d+(?:[/?#]|$)/.test(word) ? `localhost${word}` : word);
  if (!m) return undefined;
  const host = (m[1] ?? m[2]!).toLowerCase().replace(LOOPBACK, 'localhost');
  return `${host}${m[3]!.replace(/\/$/, '')}`;
}

/** A word as an intent's object: a path by its name, an address by its host and path, versions alike. */
function objectWord(word: string): string {
  const w = addressOf(word) ?? base(word.replace(/[/\\]+$/, ''));
  // versions alike (`24.12.0`, `v24.12.0`), other numbers kept: job 41 and job 42 are two things
  return w.toLowerCase().replace(/\bv?\d+(?:\.\d+)+\b/g, '#');
}

/**
 * What one simple command acts on: its program and its last word that is no flag, or an interpreter's script.
 * `fed`: the command reads text on its stdin (a here-document, a here-string, a pipe, `-`).
 */
function intentOf(words: readonly string[], fed: boolean): string | undefined {
  const [program = '', ...args] = words;
  const verb = sameTool(programName(program));
  if (INERT.test(verb) || POLLERS.test(verb) || verb === '') return undefined;
  // a word after a long flag is most likely its value (`--ext .ts`), not what the command acts on
  const plain = args.filter(
    (a, i) =>
      !a.startsWith('-') &&
      !a.includes('\u0000') &&
      !/^--[^=]+$/.test(args[i - 1] ?? '') &&
      // a script block's brace, a lone `+`, is nothing a command acts on
      lettersAndDigits(a) !== '',
  );
  // git's commands that act on the repository as a whole: the remote and branch they name say how, not what
  if (verb === 'git') {
    const sub = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-C' && args[i - 1] !== '-c');
    if (sub !== undefined && GIT_WHOLE.test(sub)) return `git ${sub.toLowerCase()}`;
  }
  if (INTERPRETERS.test(verb)) {
    if (inlineCode(verb, args)) return undefined;
    const script = plain.find((a) => /[./\\]/.test(a));
    if (script) return objectWord(script);
    // code handed on stdin (`python3 - <<'PY'`, `... | node`) is a script of its own each time, as `python -c`'s is
    if (fed) return undefined;
  }
  const object = plain.at(-1);
  if (object === undefined) return verb;
  // a request is at its address whichever client asks it: curl, wget, httpie, PowerShell's Invoke-WebRequest
  if (PROBES.test(verb) && addressOf(object) !== undefined) return objectWord(object);
  return `${verb} ${objectWord(object)}`;
}

/** A command handed whole to a shell, `bash -lc 'npm test'` or `powershell -Command "..."`, as the script it runs. */
function unwrapped(command: string): string {
  let script = command;
  let powershell = POWERSHELL.test(command);
  for (let depth = 0; depth < 3; depth++) {
    const simples = lexShell(script, powershell);
    const words = simples.length === 1 ? programWords(simples[0]!.words) : [];
    const inner = words.length > 0 ? inlineScript(base(words[0]!), words.slice(1)) : undefined;
    if (inner === undefined) break;
    // read as classifyShell reads it: a script handed to PowerShell by PowerShell's rules
    powershell = isPowerShell(base(words[0]!)) || POWERSHELL.test(inner);
    script = inner;
  }
  return script;
}

function intentSets(): { intents: Set<string>; programs: Set<string> } {
  return { intents: new Set(), programs: new Set() };
}

/** What a command that only shows what is there does: search (`rg`, `git grep`) or read (`cat`, `git status`). */
function lookOf(verb: string, words: readonly string[]): 'search' | 'read' | undefined {
  const args = words.slice(1);
  if (SEARCHERS.test(verb) || (verb === 'git' && /^(?:grep|log)$/.test(args[0] ?? ''))) return 'search';
  if (verb === 'git') return gitLooks(args) ? 'read' : undefined;
  return READERS.test(verb) || (verb === 'sed' && words.includes('-n')) || verb === 'awk' ? 'read' : undefined;
}

/** Whether a program is PowerShell, whose scripts are read by its rules (a backslash is a path's, not an escape). */
function isPowerShell(verb: string): boolean {
  const v = verb.toLowerCase().replace(/\.exe$/, '');
  return v === 'powershell' || v === 'pwsh';
}

function classifyShell(command: string, depth = 0, powershell = POWERSHELL.test(command)): CallShape {
  let shape: CallShape | undefined;
  const consider = (s: CallShape) => {
    if (!shape || RANK[s.cls] > RANK[shape.cls]) shape = s;
  };
  /** The command feeding each pipeline so far: a search that reads its stdin searches what that command printed. */
  const source = new Map<number, string[]>();
  let inline = false;
  let waited: string | undefined;
  /** Every command that did something else than look was a probe: after a wait, the call is a poll. */
  let onlyProbes = true;
  /** The URL the first probe asked for. */
  let probed: string | undefined;
  // What the command acts on, from what its commands that do something act on; where none does, what its looks
  // look at (`git status && npm test` acts on `npm test`, `git status && cat a.txt` on both); and what a
  // substitution runs (`GOCACHE=$(pwd)/.cache go test`), which computes a word of the command, only where the
  // command has nothing else (`out=$(npm test 2>&1); echo "$out"`). Else `$(pwd)` or a `git status` first would
  // make one thing of every command that has it.
  const acts = { doing: intentSets(), looking: intentSets(), computing: intentSets() };
  const into = (simple: Simple, looks: boolean) => (simple.nested ? acts.computing : looks ? acts.looking : acts.doing);
  for (const simple of lexShell(command, powershell)) {
    const written = simple.writes.find((w) => !CAPTURE.test(w) && !NOT_CODE.test(w));
    if (written !== undefined) consider({ cls: 'edit', target: written, change: command });
    const words = programWords(simple.words);
    if (words.length === 0) continue;
    const upstream = source.get(simple.pipeline);
    if (!upstream) source.set(simple.pipeline, words);
    const verb = base(words[0]!);
    const args = words.slice(1);
    const inner = depth < 3 ? inlineScript(verb, args) : undefined;
    if (inner !== undefined) {
      const shape = classifyShell(inner, depth + 1, isPowerShell(verb) || POWERSHELL.test(inner));
      const set = into(simple, shape.cls === 'read' || shape.cls === 'search');
      for (const i of shape.intents ?? []) set.intents.add(i);
      for (const p of shape.programs ?? []) set.programs.add(p);
      consider(shape);
      continue;
    }
    // a filter is not what a pipeline is for (`npm test | tail`); a search of what came before it is (`ps | grep x`)
    // `cat > /tmp/fix.py <<'EOF'`, `cat <<'EOF' | python3 -`: the text on its stdin goes on, as echo's does; it
    // reads nothing and acts on nothing
    if (simple.stdin.length > 0 && READERS.test(verb) && args.every((a) => a.startsWith('-'))) continue;
    const fed = simple.stdin.length > 0 || upstream !== undefined || args.includes('-');
    const intent = upstream && FILTERS.test(verb) ? undefined : intentOf(words, fed);
    const look = lookOf(verb, words);
    if (intent !== undefined) {
      const set = into(simple, look !== undefined);
      set.intents.add(intent);
      // the program as called (`yarn` is not found, though `yarn install` is `npm install`), or the script an
      // interpreter runs, which is its intent
      const own = programName(verb);
      set.programs.add(INTERPRETERS.test(own) ? intent.split(' ', 1)[0]! : own);
    }
    if (
      verb === 'cd' ||
      verb === 'set-location' ||
      verb === 'echo' ||
      verb === 'printf' ||
      verb === 'write-output' ||
      verb === 'write-host'
    )
      continue;
    const target = writeTarget(words);
    if (target !== undefined && !NOT_CODE.test(target)) {
      consider({
        cls: 'edit',
        target,
        change: command,
        ...((verb === 'sed' || verb === 'perl') && sedSubstitution(words)),
      });
      continue;
    }
    // `npm test | tail -20`, `opencode run x | head`: the command is what the pipeline does, not its filter
    if (upstream && FILTERS.test(verb) && !(verb === 'tail' && words.includes('-f'))) continue;
    const joined = args.join(' ');
    // waiting, then looking (`sleep 30; tail build.log`) is a poll;
    // waiting between actions (`kill; sleep 2; restart`) is not
    if (POLLERS.test(verb)) {
      waited = words.slice(0, 3).join(' ');
      continue;
    }
    if ((verb === 'tail' && words.includes('-f')) || POLL_SUBCOMMAND.test(words.slice(0, 4).join(' ')))
      consider({ cls: 'poll', target: words.slice(0, 3).join(' ') });
    // an inline script's text is code, not arguments: `python -c "..."` is a test only when it runs one
    const interpreter = INLINE_INTERPRETERS.test(verb);
    const handed = interpreter && inlineCode(verb, args);
    if (interpreter && (handed || simple.stdin.length > 0)) inline = true;
    if (
      TEST_RUNNER.test(verb) &&
      (ALWAYS_TEST.test(verb) ||
        (handed ? /\b(?:pytest|unittest)\b/.test(joined) : TEST_ARGS.test(joined)) ||
        /(?:^|\/)(?:bin\/test)$/.test(words[0]!))
    )
      consider({ cls: 'test', target: words.slice(0, 4).join(' ') });
    else if (look === 'search') {
      const found = verb === 'git' ? shellSearch(verb, args.slice(1)) : shellSearch(verb, args);
      consider({
        cls: 'search',
        ...found,
        ...(found.target === undefined && upstream && verb !== 'git' ? { target: upstream.join(' ') } : {}),
      });
    } else if (verb === 'git') consider(gitLooks(args) ? { cls: 'read', range: joined } : { cls: 'exec' });
    else if (look === 'read') consider({ cls: 'read', target: lastPath(words) ?? lastWord(words), range: joined });
    else if (PROBES.test(verb) && !args.some((a) => SENDS.test(a))) {
      // a request that sends nothing asks for a URL: a read of it, unless the command does something else too
      const url = args.filter((a) => !a.startsWith('-')).find((a) => PAGE_ADDRESS.test(a));
      probed ??= url ?? args.filter((a) => !a.startsWith('-')).at(-1) ?? verb;
      consider({ cls: 'exec' });
    } else {
      onlyProbes = false;
      consider({ cls: 'exec' });
    }
  }
  if (depth === 0 && RANK[shape?.cls ?? 'exec'] < RANK.edit && POWERSHELL_WRITE.test(command))
    return { cls: 'edit', change: command, ...(inline ? { inline } : {}) };
  let found: CallShape = shape ?? { cls: 'exec' };
  if (waited !== undefined && (!shape || (RANK[found.cls] < RANK.poll && (found.cls !== 'exec' || onlyProbes))))
    found = { ...found, cls: 'poll', target: found.target ?? waited };
  else if (found.cls === 'exec' && onlyProbes && probed !== undefined) found = { cls: 'read', target: probed };
  // the first few: what a long script does first is what it is for
  const own = [acts.doing, acts.looking, acts.computing].find((a) => a.intents.size > 0) ?? acts.doing;
  found = { ...found, intents: [...own.intents].slice(0, 4), programs: [...own.programs].slice(0, 4) };
  return inline ? { ...found, inline } : found;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function listed(v: unknown): string | undefined {
  return Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string') ? v.join(' ') : undefined;
}

function urlsIn(v: unknown): string | undefined {
  const urls = typeof v === 'string' ? v.match(/https?:\/\/[^\s"'<>)\]]+/g) : null;
  // the sentence's own punctuation after a URL is not part of it
  return urls ? urls.map((u) => u.replace(/[.,;:!?]+$/, '')).join(' ') : undefined;
}

/** Classifies a call from what its agent's adapter says of it, and for shell commands from what they run. */
export function classify(call: ToolCall, facts: CallFacts = {}): CallShape {
  if (facts.bookkeeping) return { cls: 'bookkeeping' };
  if (facts.command !== undefined) {
    const shape = { ...classifyShell(facts.command), script: unwrapped(facts.command) };
    return facts.target !== undefined && shape.target === undefined ? { ...shape, target: facts.target } : shape;
  }
  const o = callFields(call.input);
  const path = callPath(o) ?? facts.target;
  const cls = facts.cls;
  if (cls === 'edit') {
    const written = typeof o.content === 'string' ? { after: o.content } : undefined;
    return {
      cls,
      ...(path !== undefined ? { target: path } : {}),
      change: JSON.stringify(call.input),
      ...(beforeAfter(o, facts.patch) ?? written),
    };
  }
  if (cls === 'read') {
    // Gemini CLI's list_directory names its folder `dir_path` (earlier `path`), its read_many_files a list of
    // `paths`, and its web_fetch has the pages it fetches in its prompt
    const target = path ?? str(o.dir_path) ?? str(o.url) ?? listed(o.paths) ?? urlsIn(o.prompt);
    return {
      cls,
      ...(target !== undefined ? { target } : {}),
      range: [o.offset, o.limit, o.start_line, o.end_line, o.command].filter((x) => x !== undefined).join(':'),
    };
  }
  if (cls === 'search') {
    // the files a search is narrowed to are part of where it looks: Claude Code's `glob` and `type`, Gemini CLI's
    // `include_pattern` (earlier `include`)
    const narrowedTo = [str(o.glob), str(o.type), str(o.include_pattern), str(o.include)];
    const where = [path ?? str(o.dir_path), ...narrowedTo].filter((x) => x !== undefined).join(' ');
    const term = str(o.pattern) ?? str(o.query) ?? str(o.q) ?? str(o.regex) ?? str(o.name);
    return { cls, ...(where ? { target: where } : {}), ...(term !== undefined ? { term } : {}) };
  }
  return { cls: cls ?? 'other' };
}
