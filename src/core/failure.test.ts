import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  failureCause,
  failureLines,
  failureSignature,
  isErrorAnswer,
  isUsageError,
  lastLines,
  plainLine,
  saysFailed,
  withoutStartupErrors,
} from './failure.ts';
import { anyOf, either, regex } from './regex.ts';

// A failure's lines are compared without case and punctuation. An ASCII line takes a short way round the
// Unicode classes, which cost a hook process milliseconds to compile: it must come out as the long way does.

const definition = (line: string) =>
  line
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();

describe('plainLine', () => {
  it('is the Unicode definition, for ASCII lines and any others', () => {
    fc.assert(fc.property(fc.string(), (s) => assert.equal(plainLine(s), definition(s))));
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => assert.equal(plainLine(s), definition(s))));
    for (const s of ['FAIL add(2, 3): expected 5, got -1', 'Échec: 2 tests', 'İstanbul\u00a0x', 'tab\there'])
      assert.equal(plainLine(s), definition(s));
  });
});

// failureCause and isUsageError look for literals before they compile an expression: they must answer as
// the expressions alone do (these are the expressions, as they were before the literals).
const CAUSES: [string, RegExp][] = [
  [
    'command-not-found',
    either(
      'im',
      /\bcommand not found\b/,
      /is not recognized as (?:the name of a cmdlet|an internal or external command)/,
      /^(?:\S+: )?(?:line \d+: )?\S+: not found$|\bExit code:? 127\b/,
    ),
  ],
  [
    'port-in-use',
    /EADDRINUSE|address already in use|port \d+ is (?:already )?in use|Only one usage of each socket address/i,
  ],
  [
    'refused',
    either(
      'i',
      /ECONNREFUSED|ECONNRESET|Connection refused|actively refused|Failed to connect/,
      /could not connect to|Unable to connect/,
    ),
  ],
  ['duplicate', /duplicate key|UNIQUE constraint failed|Duplicate entry|E11000|\balready exists\b/i],
  [
    'permission',
    /Permission denied|EACCES|Operation not permitted|EPERM\b|Access is denied|access denied|\bsandbox\b.*\bDenied\b/i,
  ],
  [
    'auth',
    either(
      'i',
      /(?<![:.\d])\b(?:401|403)\b(?![:.]\d)|\bUnauthori[sz]ed\b|\bForbidden\b|authentication failed/,
      /invalid (?:api )?(?:key|token|credentials)/,
    ),
  ],
  ['http-404', /(?<![:.\d])\b404\b(?![:.]\d)|\bNot Found\b/],
  [
    'http-5xx',
    /\bHTTP\/[\d.]+ 5\d\d\b|\b50[0-4] (?:Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)/i,
  ],
  ['timeout', /\btimed? ?out\b(?!\s*[:=(\d])|ETIMEDOUT|deadline exceeded/i],
  [
    'no-such-file',
    either(
      'i',
      /No such file or directory|File does not exist|does not exist/,
      /cannot find (?:the )?(?:path|file)|ENOENT|FileNotFoundError|Could not find file/,
    ),
  ],
];
const USAGE = either(
  'm',
  /^(?:usage: |Usage: )|unrecognized (?:option|arguments?)|invalid (?:choice|option)/,
  /missing required (?:argument|parameter)|syntax error near unexpected token/,
  /unexpected EOF while looking for matching|ParserError:/,
  /Unexpected token '?\S*'? in expression or statement/,
);

const PHRASES = [
  'Command not found',
  'x: not found',
  'sh: line 1: foo: not found',
  'Exit code 127',
  'is not recognized as an internal or external command',
  'EADDRINUSE',
  'port 3000 is already in use',
  'Address already in use',
  'ECONNRESET',
  'actively refused',
  'Unable to connect',
  'Duplicate Entry',
  'E11000',
  'already exists',
  'EPERM',
  'sandbox: write Denied',
  'Access is denied',
  'HTTP 401',
  '403',
  'Unauthorised',
  'FORBIDDEN',
  'invalid api token',
  'Not Found',
  'not found',
  '404',
  'HTTP/1.1 503',
  '502 Bad Gateway',
  'timed out',
  'TimeOut',
  'ETIMEDOUT',
  'Deadline Exceeded',
  'ENOENT',
  'cannot find the path',
  'Could not find file',
  'usage: x',
  'Usage: y',
  'unrecognized option',
  'invalid choice',
  'missing required argument',
  'ParserError:',
  "Unexpected token 'x' in expression or statement",
  'syntax error near unexpected token',
  'Exit code 1',
  '\n',
  ' ',
  'İ',
  '\u212a',
];

/** failureCause answers as the first cause's expression alone does (the oracle), or with no class at all. */
function causeAsItsExpression(t: string): void {
  const bare = t.replace(/^Exit code:? -?\d+$/gim, '').trim().length === 0;
  const cause = bare ? 'bare' : CAUSES.find(([, re]) => re.test(t))?.[0];
  const got = failureCause(t);
  if (cause !== undefined) assert.equal(got, cause, t);
  else assert.ok(!CAUSES.some(([c]) => c === got), t);
}

/** Outputs that each say, in words of their own, one cause. */
function causeOfEach(cause: string, outputs: readonly string[]): void {
  for (const out of outputs) assert.equal(failureCause(out), cause, out);
}

describe('failureCause and isUsageError', () => {
  it("a login shell's start-up errors are not the command's cause; the shell's own errors are", () => {
    const banner = '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted';
    const unknown = `Exit code: 1\n${banner}\n\n> vitest run --runInBand\nCACError: Unknown option \`--runInBand\``;
    assert.equal(failureCause(unknown), 'permission', 'read without the command, as before');
    assert.notEqual(failureCause(unknown, 'cd frontend && npm test -- --runInBand'), 'permission');
    // a script the command names is its own, and so is the shell that runs it
    assert.equal(
      failureCause(`scripts/setup.sh: line 4: ${'/etc/x'}: Permission denied`, 'bash scripts/setup.sh'),
      'permission',
    );
    assert.equal(
      failureCause('/usr/bin/bash: line 3: Get-ChildItem: command not found', 'Get-ChildItem'),
      'command-not-found',
    );
  });

  it('a timeout is one that happened, not the word as an option or a setting', () => {
    assert.equal(failureCause('Exit code 1\ncommand timed out after 10012 milliseconds'), 'timeout');
    assert.equal(failureCause('Error: Extension connection timeout. Make sure it is installed'), 'timeout');
    assert.notEqual(failureCause("FAIL app.test.ts\n116| }, { timeout: 3000 });\nexpected 'a' to be 'b'"), 'timeout');
    assert.notEqual(failureCause('$ timeout 8 curl -s localhost:8000\nExit code 2'), 'timeout');
  });

  it('credentials refused or not to be had are one cause: a key SSH refused, git with no terminal to ask', () => {
    causeOfEach('auth', [
      'git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.',
      "fatal: could not read Username for 'https://github.com': No such device or address",
      "fatal: could not read Username for 'https://github.com': terminal prompts disabled",
      'deploy@10.0.0.5: Permission denied (publickey,password).',
    ]);
    assert.equal(failureCause('bash: ./deploy.sh: Permission denied'), 'permission');
  });

  it("work not yet committed in git's way is one cause, in each command's words", () => {
    causeOfEach('uncommitted', [
      'error: Your local changes to the following files would be overwritten by merge:\n\tsrc/app.py\nAborting',
      'error: cannot pull with rebase: You have unstaged changes.\nerror: please commit or stash them.',
      'error: The following untracked working tree files would be overwritten by checkout:\n\tnotes.md',
    ]);
  });

  it("a port taken is one cause in Docker's words too", () => {
    causeOfEach('port-in-use', [
      'Error response from daemon: driver failed programming external connectivity on endpoint db (9f2c): ' +
        'Bind for 0.0.0.0:5432 failed: port is already allocated',
      'Error: listen EADDRINUSE: address already in use :::3000',
    ]);
  });

  it('a host this machine cannot reach is one cause, however each client words it', () => {
    causeOfEach('unreachable', [
      'npm ERR! network request to https://registry.npmjs.org/react failed, reason: getaddrinfo ENOTFOUND npmjs.org',
      'error An unexpected error occurred: "https://registry.yarnpkg.com/react: getaddrinfo EAI_AGAIN yarnpkg.com".',
      'curl: (6) Could not resolve host: api.example.com',
      'ssh: Could not resolve hostname db1: Temporary failure in name resolution',
      "fatal: unable to access 'https://github.com/a/b/': Failed to connect to github.com: Network is unreachable",
    ]);
    assert.equal(failureCause('curl: (7) Failed to connect to localhost port 8080: Connection refused'), 'refused');
  });

  it('sudo that could not ask for the password, or may not be used, had no permission', () => {
    const noTerminal =
      'sudo: a terminal is required to read the password; either use the -S option to read from standard input or ' +
      'configure an askpass helper\nsudo: a password is required';
    assert.equal(failureCause(noTerminal, 'sudo docker compose up -d'), 'permission');
    assert.equal(failureCause('dev is not in the sudoers file.  This incident will be reported.'), 'permission');
    assert.notEqual(failureCause('$ sudo apt-get install -y jq\nE: Unable to locate package jq'), 'permission');
  });

  it('a notice is not why a call failed', () => {
    const dropped = 'NOTICE:  index "idx_embedding" does not exist, skipping\nERROR:  syntax error at or near "VECTOR"';
    assert.notEqual(failureCause(dropped), 'no-such-file');
    assert.equal(failureCause('ERROR:  relation "skills" does not exist'), 'no-such-file');
  });

  it('a 404 is not line 404 of a stack frame', () => {
    assert.notEqual(
      failureCause('CACError: Unknown option\n    at check (file:///app/node_modules/cac.js:404:17)'),
      'http-404',
    );
    assert.equal(failureCause('GET /api/users 404'), 'http-404');
    assert.notEqual(failureCause('TypeError: x is undefined\n    at run (/app/dist/server.js:403:9)'), 'auth');
  });

  it('an exit code alone names no cause: two failures alike in nothing else have two causes', () => {
    const denied = "Exit code 2\nls: \u65e0\u6cd5\u6253\u5f00\u76ee\u5f55 '/home/ops': \u6743\u9650\u4e0d\u591f";
    const sudo = 'Exit code 1\nsudo: a terminal is required to read the password';
    assert.notEqual(failureCause(denied), failureCause(sudo));
    // the same last words after other output, another exit code and path are the same cause
    assert.equal(
      failureCause(sudo),
      failureCause('Exit code 3\n[main 05b9] x\nsudo: a terminal is required to read the password'),
    );
  });

  it('answer as their expressions alone', () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom(...PHRASES), fc.string({ maxLength: 5 })), { maxLength: 8 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => {
        causeAsItsExpression(t);
        assert.equal(isUsageError(t), USAGE.test(t.slice(0, 2000)), t);
      }),
      { numRuns: 5000 },
    );
  });
});

// failureLines asks a line only the expressions whose literals the output holds: it must find what all of
// them, asked of every line, find (these are they).
const ERROR_LINE = [
  /^(?:E\s+)?(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Failure|Warning|Exit|Interrupt)\b:?.*$/,
  /^(?:FAILED|FAIL|ERROR|ERRORS?)\b.*$/,
  /^error(?:\[\w+\])?:.*$/i,
  /^.*\b(?:error|fatal)\s+(?:TS\d+|C\d+|E\d+)?:.*$/i,
  /^-?\s*[A-Z]\d{3,4}\b.*$/,
  /^npm ERR!.*$/,
  /^(?:e|w): (?:file:\/\/)?\S+:\d+(?::\d+)? .*$/,
  /^(?:FAILURE: Build failed.*|\* What went wrong:|Execution failed for task .*|BUILD FAILED.*|\[ERROR\] .*)$/,
  /^\s*(?:\u2717|\u2715|×|not ok)\s+.*$/,
  /^.*\b\d+ (?:failed|errors?|failing)\b.*$/i,
  regex(
    'i',
    /^.*/,
    anyOf(
      /command not found|No such file or directory|Permission denied|cannot find/,
      /not found|undefined|Cannot find module/,
    ),
    /.*$/,
  ),
  /^Exit code:? \d+$/,
  /^HTTP\/[\d.]+ [45]\d\d\b.*$/,
];

function everyLine(text: string): string[] {
  const lines = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.length === 0 || line.length > 400) continue;
    if (ERROR_LINE.some((re) => re.test(line)))
      lines.add(line.replace(/\b(?:line|ln|col|column)\s*\d+|:\d+(?::\d+)?\b/gi, ':N').replace(/\s+/g, ' '));
    if (lines.size >= 40) break;
  }
  return [...lines].sort();
}

const LINE_PIECES = [
  'TypeError: x',
  'E   AssertionError',
  'FAILED test',
  'FAIL',
  'ERRORS',
  'error: x',
  'Error[E0382]: y',
  'error TS2304: z',
  'fatal: no',
  'F821 undefined',
  '- E501 line',
  'npm ERR! code 1',
  'e: file:///a.kt:1:2 x',
  'w: b.kt:3 y',
  'FAILURE: Build failed with',
  '* What went wrong:',
  'Execution failed for task :app',
  'BUILD FAILED in 2s',
  '[ERROR] x',
  '\u2717 a',
  '\u2715 b',
  '× c',
  'not ok 1 - d',
  '3 failed',
  '1 Errors',
  '2 failing',
  'command not found',
  'No such file or directory',
  'permission denied',
  'Cannot find module',
  'undefined',
  'Exit code 1',
  'Exit code: 2',
  'HTTP/1.1 404 Not Found',
  'HTTP/2 500',
  '\n',
  ' ',
  'ok',
  'İ',
  '\u212a',
];

describe('failureLines', () => {
  it('finds what every expression asked of every line finds', () => {
    const text = fc
      .array(fc.oneof(fc.constantFrom(...LINE_PIECES), fc.string({ maxLength: 4 })), { maxLength: 10 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => assert.deepEqual(failureLines(t), everyLine(t))),
      { numRuns: 5000 },
    );
  });
});

describe('lastLines', () => {
  it('gives the last lines with more than spaces, trimmed, as splitting the whole text would', () => {
    const unit = fc.constantFrom('a', 'b', ' ', '\t', '\n', '\r', '\u00a0');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.integer({ min: 1, max: 4 }), (t, n) => {
        const all = t
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean);
        assert.deepEqual(lastLines(t, n), all.slice(-n));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('failureLines and failureCause, once a process has looked at enough text for an automaton', () => {
  it('answer as before', () => {
    for (let i = 0; i < 40; i++) {
      failureLines('x'.repeat(10_000));
      failureCause('x'.repeat(10_000));
    }
    const lines = fc
      .array(fc.oneof(fc.constantFrom(...LINE_PIECES), fc.string({ maxLength: 4 })), { maxLength: 10 })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(lines, (t) => assert.deepEqual(failureLines(t), everyLine(t))),
      { numRuns: 3000 },
    );
    const phrases = fc
      .array(fc.oneof(fc.constantFrom(...PHRASES), fc.string({ maxLength: 5 })), { maxLength: 8 })
      .map((p) => p.join(''));
    fc.assert(fc.property(phrases, causeAsItsExpression), { numRuns: 3000 });
  });
});

describe('an answer that is only an error', () => {
  it("is a server's error body too: its error first, under a key of its own", () => {
    for (const t of ['{"detail":"Invalid payload"}', '{"error":"name is required"}', '{"errors":[{"field":"name"}]}'])
      assert.ok(isErrorAnswer(t), t);
    // a status that says how a job is going is not one, even when it is not going well
    for (const t of ['{"error":null,"data":[1]}', '{"errors":[]}', '{"ok":false,"step":3}', '{"success":true}'])
      assert.ok(!isErrorAnswer(t), t);
  });
});

describe('a verification run that says it failed, its exit status lost in a pipe', () => {
  it("is ESLint's report of problems, by its summary or its lines alone", () => {
    assert.ok(saysFailed('/src/a.ts\n  3:1  error  Unexpected var  no-var\n\n\u2716 1 problem (1 error, 0 warnings)'));
    assert.ok(saysFailed('  3:1  error  Unexpected var  no-var\n  9:4  error  Missing semicolon  semi'));
    assert.ok(saysFailed('\u2716 3 problems'));
    assert.ok(!saysFailed('  3:1  warning  Unexpected console statement  no-console\n\n\u2716 0 problems'));
    assert.ok(!saysFailed('All files pass linting.\nerror handling: 12 cases covered'));
  });
});

describe("a command's output without its login shell's start-up errors", () => {
  const banner = '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted';
  it('loses the errors at its head of scripts the command does not name, and nothing else', () => {
    assert.equal(withoutStartupErrors(`${banner}\n`, "sed -n '400,800p' notes.md"), '');
    assert.equal(withoutStartupErrors(`${banner}\n# Notes\n`, 'cat notes.md'), '# Notes\n');
    // a script the command runs, and the shell's own errors, are the command's
    assert.equal(withoutStartupErrors(`${banner}\n`, 'bash shellenv.sh'), `${banner}\n`);
    const own = '/usr/bin/bash: line 3: adb: command not found';
    assert.equal(withoutStartupErrors(own, 'adb devices'), own);
    // the agent's note of the exit code, where it comes first, stays
    assert.equal(withoutStartupErrors(`Exit code 1\n${banner}\nboom`, 'make'), 'Exit code 1\nboom');
    // past the head, a script's error is part of what the command printed
    assert.equal(withoutStartupErrors(`built\n${banner}`, 'make'), `built\n${banner}`);
  });
});

describe('a failure signature', () => {
  const rust = (file: string, line: number) =>
    `error[E0308]: mismatched types\n  --> ${file}:${line}:9\n\n` +
    'error: could not compile `app` due to 1 previous error';
  const python = (file: string, line: number) =>
    `Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n    main()\n` +
    `  File "${file}", line ${line}, in main\nTypeError: unsupported operand type(s) for +: 'int' and 'str'`;
  const node = (file: string, line: number) =>
    `TypeError: Cannot read properties of undefined (reading 'trim')\n    at format (${file}:${line}:20)\n` +
    '    at main (/home/dev/proj/index.js:9:3)';
  const java = (file: string, line: number) =>
    `Exception in thread "main" java.lang.NullPointerException\n\tat app.Main.run(${file}:${line})\n` +
    '\tat app.Main.main(Main.java:3)';

  it('holds where the failure is, said on a line of its own: another file is another failure', () => {
    for (const [name, at] of Object.entries({ rust, python, node, java })) {
      assert.equal(failureSignature(at('src/a.x', 4)), failureSignature(at('src/a.x', 9)), `${name}: lines shift`);
      assert.notEqual(failureSignature(at('src/a.x', 4)), failureSignature(at('src/b.x', 4)), `${name}: another file`);
    }
  });

  it("takes rustc's first location and a stack's top frame, and a Python traceback's innermost frame", () => {
    const two = (a: string, b: string) => `${rust(a, 1)}\n${rust(b, 2)}`;
    assert.equal(failureSignature(two('src/a.rs', 'src/b.rs')), failureSignature(two('src/a.rs', 'src/c.rs')));
    const framesBelow = node('src/m.js', 4).replace('index.js', 'other.js');
    assert.equal(failureSignature(node('src/m.js', 4)), failureSignature(framesBelow));
    const callerElsewhere = python('src/core.py', 10).replace('"app.py"', '"cli.py"');
    assert.equal(failureSignature(python('src/core.py', 10)), failureSignature(callerElsewhere));
  });
});
