import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Session, times } from '../../test/support/session.ts';

// One thing tried in different ways: the shapes people's stalls take when every attempt is spelled otherwise,
// and the healthy work that looks like them. Through the whole engine, as the hook runs it.

const P = '/home/dev/proj';
const webhooks = 'https://docs.example.com/api/webhooks';

/** One page fetched once per [prompt, answer]; the action of each call, undefined when it passed. */
function fetchEach(s: Session, url: string, asks: [string, string][]): (string | undefined)[] {
  return asks.map(([prompt, answer]) => {
    const d = s.call('WebFetch', { url, prompt }, answer);
    return d.action === 'allow' ? undefined : d.action;
  });
}
/** Shell commands run one after another in a new task, each failing with its output; the last one's decision. */
function failingRuns(runs: readonly [command: string, output: string][]) {
  const s = new Session();
  s.prompt();
  return runs.map(([command, output]) => s.bash(command, output, false)).at(-1)!;
}
/** What one person's login shell printed before every command (a start-up file's error). */
const banner = '/opt/homebrew/Library/Homebrew/cmd/shellenv.sh: line 18: /bin/ps: Operation not permitted';

describe('one thing, tried in different ways', () => {
  it('a program that is not there, called bare, through cmd or through PowerShell, is not found however called', () => {
    const s = new Session();
    s.prompt();
    s.bash('adb devices', '/usr/bin/bash: line 1: adb: command not found', false);
    s.bash(
      'cmd /c adb devices',
      "'adb' is not recognized as an internal or external command,\noperable program or batch file.",
      false,
    );
    const d = s.bash(
      'powershell -Command "adb devices"',
      "adb : The term 'adb' is not recognized as the name of a cmdlet, function, script file, or operable program.",
      false,
    );
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /`adb` is not found: tried 3 ways/);
  });

  it('an endpoint asked through curl, again by its address, then through wget, refused each time, is retried', () => {
    const refused = (host: string) =>
      `curl: (7) Failed to connect to ${host} port 8080 after 0 ms: Couldn't connect to server`;
    const d = failingRuns([
      ['curl http://localhost:8080/api/items', refused('localhost')],
      ['curl -v http://127.0.0.1:8080/api/items', `* connect to 127.0.0.1 port 8080 failed\n${refused('127.0.0.1')}`],
      ['wget -O- http://localhost:8080/api/items', 'failed: Connection refused.'],
    ]);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /`localhost:8080\/api\/items` fails \(connection refused\): tried 3 ways/);
  });

  it('dependencies installed with npm, yarn, then pnpm, the registry unreachable each time, are one install', () => {
    const offline = (host: string) => `getaddrinfo ENOTFOUND ${host}`;
    const d = failingRuns([
      ['npm install', `npm ERR! code ENOTFOUND\nnpm ERR! network ${offline('registry.npmjs.org')}`],
      ['yarn install', `error An unexpected error occurred: "${offline('registry.yarnpkg.com')}".`],
      ['pnpm install', ` ERR_PNPM_META_FETCH_FAIL  GET ... reason: ${offline('registry.npmjs.org')}`],
    ]);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /`npm install` fails \(host unreachable\): tried 3 ways/);
  });

  it('containers started through docker compose, sudo and docker-compose, denied each time, are not permitted', () => {
    const d = failingRuns([
      ['docker compose up -d', 'permission denied while trying to connect to the Docker daemon socket'],
      ['sudo docker compose up -d', 'sudo: a terminal is required to read the password'],
      ['docker-compose up -d', 'PermissionError: [Errno 13] Permission denied'],
    ]);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /fails \(permission denied\): tried 3 ways/);
  });

  it("a service's status asked three ways, refused its socket each time, is retried, not waited on", () => {
    const s = new Session();
    s.prompt();
    s.bash(
      'docker ps',
      'permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock',
      false,
    );
    s.bash('docker compose ps', 'permission denied while trying to connect to the Docker daemon socket', false);
    const d = s.bash(
      'DOCKER_HOST=unix:///var/run/docker.sock docker ps',
      'Got permission denied while trying to connect to the Docker daemon socket',
      false,
    );
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /`docker ps` fails \(permission denied\): tried 3 ways/);
  });

  it('a health check refused while the server starts is waited on', () => {
    const s = new Session();
    s.prompt();
    s.bash('npm run dev > dev.log 2>&1 &', '');
    for (const _ of times(3, () => 0))
      s.bash(
        'sleep 5 && curl -sf localhost:3000/health',
        'curl: (7) Failed to connect to localhost port 3000: Connection refused',
        false,
      );
    assert.deepEqual(s.timeline, []);
  });

  it('a service started with other flags, failing for the same cause with other words, is one attempt again', () => {
    const s = new Session();
    s.prompt();
    s.bash(
      'docker compose up -d',
      'Error response from daemon: driver failed programming external connectivity: ' +
        'Bind for 0.0.0.0:5432 failed: port is already allocated\nError: address already in use',
      false,
    );
    s.bash(
      'docker compose up -d --force-recreate',
      'Error starting userland proxy: listen tcp4 0.0.0.0:5432: bind: address already in use',
      false,
    );
    const d = s.bash(
      'docker compose stop && docker compose rm -f && docker compose up -d',
      'Recreating db ... error\nERROR: for db  Cannot start service db: address already in use',
      false,
    );
    assert.equal(d.action, 'nudge');
  });

  it('a pull refused for local changes, again with --rebase, then from origin, is one pull refused each time', () => {
    const merge = 'error: Your local changes to the following files would be overwritten by merge:\n\tsrc/app.py';
    const d = failingRuns([
      ['git pull', merge],
      ['git pull --rebase', 'error: cannot pull with rebase: You have unstaged changes.'],
      ['git pull origin main', merge],
    ]);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /`git pull` fails \(local changes in the way\): tried 3 ways/);
  });

  it('compose up plain, recreated, then after stop and rm, its port taken each time, is one attempt again', () => {
    const taken = (hash: string) =>
      'Error response from daemon: driver failed programming external connectivity on endpoint app-db-1 ' +
      `(${hash}): Bind for 0.0.0.0:5432 failed: port is already allocated`;
    const d = failingRuns([
      ['docker compose up -d', taken('9f2c1a7b3d4e')],
      ['docker compose up -d --force-recreate', taken('1a2b3c4d5e6f')],
      ['docker compose stop && docker compose rm -f && docker compose up -d', taken('77aa88bb99cc')],
    ]);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /fails \(port already in use\): tried 3 ways/);
  });

  it('a lint script run again with only the tail length changed tells nothing new', () => {
    const s = new Session();
    s.prompt();
    const out = (n: number) =>
      [
        ' src/a.ts',
        '  3:1  error  Unexpected var  no-var',
        ' src/b.ts',
        '  9:4  error  Missing semicolon  semi',
        `✖ 2 problems`,
      ]
        .slice(-n)
        .join('\n');
    s.bash('npm run lint 2>&1 | tail -5', out(5));
    s.bash('npm run lint 2>&1 | tail -3', out(3));
    const d = s.bash('npm run lint 2>&1 | tail -4', out(4));
    assert.equal(d.action, 'nudge');
  });

  it('a look at disk usage that comes back empty, again with sudo and without, finds nothing each time', () => {
    const s = new Session();
    s.prompt();
    s.bash('sudo du -sh /* 2>/dev/null | sort -hr | head -10', '');
    s.bash('sudo du -sh /* 2>/dev/null | sort -hr | head -10', '');
    const d = s.bash('du -sh /* 2>/dev/null | sort -hr | head -10', '');
    assert.equal(d.action, 'nudge');
  });

  it('a bare failure across varied commands, once the folder is gone from under the shell, is the same failure', () => {
    const s = new Session();
    s.prompt();
    for (const cmd of ['ls', 'git status', 'cat package.json', 'pwd'])
      s.call('Bash', { command: cmd }, 'Exit code 1', false);
    assert.equal(s.actions()[0], 'nudge');
  });
});

describe('not one thing: healthy work that looks alike', () => {
  it('greps for nine names, each finding its own file, are nine answers', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 9; i++) s.bash(`grep -rl "handler${i}" src`, `src/handlers/handler${i}.ts`);
    for (let i = 0; i < 9; i++)
      s.call('Grep', { pattern: `Handler${i}`, path: `${P}/src` }, `Found 1 file\n${P}/src/handlers/h${i}.ts`);
    assert.deepEqual(s.actions(), []);
  });

  it('two or three empty lookups while exploring different places are exploration', () => {
    const s = new Session();
    s.prompt();
    for (const glob of ['*.toml', 'Makefile', '.env*'])
      s.call(
        'shell_command',
        { command: `rg --files -g '${glob}'` },
        'Exit code: 1\nWall time: 0.1 seconds\nOutput:\n',
      );
    s.bash('cat package.json', '{"name":"proj","scripts":{"test":"node test.js"}}');
    for (const glob of ['*.yml', 'Dockerfile'])
      s.call(
        'shell_command',
        { command: `rg --files -g '${glob}'` },
        'Exit code: 1\nWall time: 0.1 seconds\nOutput:\n',
      );
    assert.deepEqual(s.actions(), []);
  });

  it('a new project looked at with ls, ls again and rg --files, each empty, is an empty folder, not a retry', () => {
    const s = new Session();
    s.prompt();
    s.call(
      'shell_command',
      { command: 'ls', workdir: P },
      `Exit code: 0\nWall time: 0.2 seconds\nOutput:\n${banner}\n`,
      true,
    );
    s.call(
      'shell_command',
      { command: 'ls', workdir: P, login: false },
      'Exit code: 0\nWall time: 0.1 seconds\nOutput:\n',
      true,
    );
    s.call('shell_command', { command: 'rg --files', workdir: P, login: false }, 'Exit code: 1\nOutput:\n', false);
    s.call(
      'shell_command',
      { command: 'ls -a', workdir: P, login: false },
      'Exit code: 0\nOutput:\n.\n..\n.git\n',
      true,
    );
    assert.deepEqual(s.timeline, []);
  });

  it("a page read past a file's end, printing only the shell's start-up error, printed nothing", () => {
    const s = new Session();
    s.prompt();
    const out = (body: string) => `Exit code: 0\nWall time: 0 seconds\nOutput:\n${banner}\n${body}`;
    const latest = () => s.state.agents.main!.window.at(-1)!;
    s.call('shell_command', { command: "sed -n '1,240p' docs/a.md", workdir: P }, out('# a\nabout a\n'));
    assert.equal(latest().empty, undefined);
    s.call('shell_command', { command: "sed -n '240,520p' docs/a.md", workdir: P }, out(''));
    assert.equal(latest().empty, true);
    s.call('shell_command', { command: "sed -n '240,520p' docs/b.md", workdir: P }, out(''));
    assert.equal(latest().reread, undefined);
  });

  it('folders listed one by one, each empty, are places explored, not one listing retried', () => {
    const s = new Session();
    s.prompt();
    s.bash(
      `find ${P}/packages -type d | sort`,
      ['bazi', 'zodiac', 'mbti', 'shared'].map((d) => `${P}/packages/${d}`).join('\n'),
    );
    for (const dir of ['bazi', 'zodiac', 'mbti', 'shared']) s.bash(`find ${P}/packages/${dir} -type f | sort`, '');
    assert.deepEqual(s.actions(), []);
  });

  it('an edit that changed nothing, then the edit that does, is the fix, not a retry', () => {
    // at the least evidence the signal can give (two attempts), to see what it counts
    const s = new Session({ judge: { levels: { NEAR_DUPLICATE: 2 } } });
    s.prompt();
    const file = `${P}/docs/constitution.md`;
    const rule = (n: number) => `- [PRINCIPLE_${n}_NAME] Deterministic Event Sourcing & Replay Guarantees`;
    const lines = [1, 2, 3].map(rule).join('\n');
    s.call('Edit', { file_path: file, old_string: lines, new_string: lines }, `The file ${file} has been updated.`);
    const d = s.call(
      'Edit',
      { file_path: file, old_string: lines, new_string: lines.replaceAll('[PRINCIPLE_', 'Principle slot ') },
      `The file ${file} has been updated.`,
    );
    assert.equal(d.action, 'allow');
  });

  it('one or two 404s among fetches that work are no thrash', () => {
    const s = new Session();
    s.prompt();
    const pages = ['intro', 'api', 'missing', 'config', 'old', 'faq'];
    for (const p of pages)
      s.call(
        'WebFetch',
        { url: `https://docs.example.com/${p}`, prompt: 'summarise' },
        p === 'missing' || p === 'old'
          ? 'Request failed with status code 404'
          : `The ${p} page explains ${p} in detail.`,
        p === 'missing' || p === 'old' ? false : true,
      );
    assert.deepEqual(s.actions(), []);
  });

  it('errors fixed one at a time, the next one of the same kind in another file, are work', () => {
    // rustc names the file on a line of its own (tsc and go on the error line): the next file is the next error
    const rustc = (i: number) =>
      `error[E0308]: mismatched types\n  --> src/r${i + 1}.rs:${4 + i}:9\n\n` +
      'error: could not compile `app` (bin "app") due to 1 previous error';
    const s = new Session();
    s.prompt();
    times(5, (i) => {
      s.call('Edit', { file_path: `${P}/src/r${i}.rs`, old_string: `a${i}`, new_string: `b${i}` }, 'ok');
      s.bash('cargo build', rustc(i), false);
    });
    assert.deepEqual(s.timeline, []);
    // the same error in the same file after each edit is one the edits do not reach
    const stuck = new Session();
    stuck.prompt();
    times(5, (i) => {
      stuck.call('Edit', { file_path: `${P}/src/lib.rs`, old_string: `a${i}`, new_string: `b${i}` }, 'ok');
      stuck.bash('cargo build', rustc(i).replace(`src/r${i + 1}.rs`, 'src/lib.rs'), false);
    });
    assert.equal(stuck.actions()[0], 'nudge');
  });

  it('a dev server killed and restarted after each edit is work', () => {
    const s = new Session();
    s.prompt();
    times(4, (i) => {
      s.call('Edit', { file_path: `${P}/src/server.ts`, old_string: `port ${i}`, new_string: `port ${i + 1}` }, 'ok');
      s.bash(
        'pkill -f "node server.js"; node server.js & sleep 1; curl -s localhost:3000/health',
        `{"ok":false,"step":${i}}`,
      );
    });
    assert.deepEqual(s.actions(), []);
  });
});

describe('what the attempts share', () => {
  it('a push failing the same way through three different commands names the push, the thing all three do', () => {
    const s = new Session();
    s.prompt();
    const denied = "Exit code 128\nfatal: could not read Username for 'https://github.com': No such device or address";
    s.bash(
      'git add . && git commit -m "hardware config" && git push',
      `[master 05b9219] hardware config\n${denied}`,
      false,
    );
    s.bash('git remote set-url origin https://github.com/a/hardware.git && git push', denied, false);
    const d = s.bash('gh repo view a/hardware && git push', `name:\ta/hardware\n${denied}`, false);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /`git push` fails/);
  });

  it('test runs spelled three ways, refused by the database each time, are nudged with the cause they share', () => {
    const s = new Session();
    s.prompt();
    const refused = (n: number) =>
      `FAIL tests/db.test.ts\nError: connect ECONNREFUSED 127.0.0.1:5432\n  at TCPConnectWrap (${n} ms)`;
    s.bash('npm test -- tests/db.test.ts', refused(12), false);
    s.bash('npx vitest run tests/db.test.ts', refused(15), false);
    const d = s.bash('npm run test -- --reporter=verbose tests/db.test.ts', refused(9), false);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /same failure: connection refused/);
    // and the ledger's record of the signal says it too
    assert.ok(d.signals?.some((x) => /^same failure: connection refused/.test(x.detail ?? '')));
  });

  it('a version tried three ways is named with the version the last attempt gave, not as the intents read it', () => {
    const s = new Session();
    s.prompt();
    const refused = [
      'Downloading https://nodejs.org/dist/v24.12.0/node-v24.12.0-linux-x64.tar.xz...',
      'curl: (7) Failed to connect to nodejs.org port 443: Connection refused',
    ].join('\n');
    s.bash('nvm install 24.12.0', refused, false);
    s.bash("bash -lc 'source ~/.nvm/nvm.sh && nvm install v24.12.0'", refused, false);
    const d = s.bash('nvm install 24.12.0 --latest-npm', refused, false);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /`nvm 24\.12\.0`/);
    assert.doesNotMatch(d.message ?? '', /nvm #/);
  });

  it('a build task tried three ways is named as the calls wrote it, not in the lower case intents are kept in', () => {
    const s = new Session();
    s.prompt();
    const failed = 'FAILURE: Build failed with an exception.\n* What went wrong:\nSDK location not found.';
    s.bash('./gradlew assembleDebug', failed, false);
    s.bash('./gradlew assembleDebug --rerun-tasks', failed, false);
    const d = s.bash('cd app && ./gradlew assembleDebug --console=plain', failed, false);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /`gradlew assembleDebug`/);
  });

  it('two scripts handed on stdin, or two commands using $(pwd), are not one thing tried again', () => {
    const s = new Session();
    s.prompt();
    const traceback = (k: string) => `Traceback (most recent call last):\n  File "<stdin>", line 3\nKeyError: '${k}'`;
    s.bash("python3 - <<'PY'\nimport json\nprint(json.load(open('a.json'))['x'])\nPY", traceback('x'), false);
    s.bash("python3 - <<'PY'\nimport csv\nprint(next(csv.DictReader(open('b.csv')))['y'])\nPY", traceback('y'), false);
    s.bash(
      "python3 - <<'PY'\nimport tomllib\nprint(tomllib.load(open('c.toml','rb'))['z'])\nPY",
      traceback('z'),
      false,
    );
    assert.deepEqual(s.actions(), []);
    const dirs = new Session();
    dirs.prompt();
    const said = [
      dirs.bash('GOCACHE=$(pwd)/.cache go vet ./...', 'vet: ./db.go:3:1: undefined: Conn', false),
      dirs.bash('docker run --rm -v "$(pwd)":/src app make', 'make: *** No rule to make target', false),
      dirs.bash('tar czf "$(pwd)/../out.tgz" dist', 'tar: dist: Cannot stat', false),
    ].map((d) => d.message ?? '');
    assert.deepEqual(said, ['', '', '']);
  });
});

describe('not the same failure', () => {
  it('the next missing module after an install is progress, though the error reads alike', () => {
    const s = new Session();
    s.prompt();
    const missing = (m: string) =>
      `ImportError while loading conftest\nE   ModuleNotFoundError: No module named '${m}'`;
    s.bash('.venv/bin/pytest tests -x -k floordiv', missing('polars'), false);
    s.bash('.venv/bin/pytest tests -x -k floordiv 2>&1', missing('polars'), false);
    s.bash('.venv/bin/pip install -e py-polars/', 'Successfully installed polars-1.38.1');
    s.bash('.venv/bin/pytest tests -x -k floordiv', missing('numpy'), false);
    s.bash('.venv/bin/pip install numpy', 'Successfully installed numpy-2.4.2');
    s.bash('.venv/bin/pytest tests -x -k floordiv', missing('hypothesis'), false);
    assert.deepEqual(s.actions(), []);
  });
});

describe('a request that asks for a URL is a lookup', () => {
  it('a couple of 404s while finding where a local server serves a page are exploration', () => {
    const s = new Session();
    s.prompt();
    const missing = 'HTTP/1.1 404 Not Found\nConnection: keep-alive';
    s.bash('curl -I http://localhost:50788/architecture.html', missing);
    s.call('Read', { file_path: `${P}/server.cjs` }, 'const http = require("http");\nserve(dir);');
    s.bash('curl -I http://localhost:50788/', missing);
    s.bash('cat state/server-info', '{"port":50788,"screen_dir":"content"}');
    s.bash('curl -I http://localhost:50788/content/architecture.html', missing);
    assert.deepEqual(s.actions(), []);
  });

  it('an API asked with its token passed three ways, answering only its error each time, is not authorised', () => {
    const s = new Session();
    s.prompt();
    const refused = '{"error":"unauthorized","status":401}';
    s.bash('curl -s -H "Authorization: Bearer $TOKEN" https://api.example.com/v1/me', refused);
    s.bash('curl -s -H "Authorization: token $TOKEN" https://api.example.com/v1/me', refused);
    const d = s.bash('curl -s -u me:$TOKEN https://api.example.com/v1/me', refused);
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /not authorised/);
  });
});

describe('lookups that move but never find anything, and rounds that fail alike', () => {
  it('a file that is not there, read with the Read tool, then cat, then head, is one lookup finding nothing', () => {
    const s = new Session();
    s.prompt();
    s.call('Read', { file_path: `${P}/config/app.yaml` }, 'File does not exist.', false);
    s.bash('cat config/app.yaml', 'cat: config/app.yaml: No such file or directory', false);
    const d = s.bash(
      'head -50 ./config/app.yaml',
      "head: cannot open './config/app.yaml': No such file or directory",
      false,
    );
    assert.equal(d.action, 'nudge');
    assert.equal(d.signals[0]!.code, 'EMPTY_RESULT');
  });

  const GUESSES = ['docs/api', 'api/docs', 'reference', 'docs/reference/api', 'developers/api', 'docs/rest'];
  /** Pages of one site guessed one after another, each a 404. */
  const guessPages = (pages: readonly string[]) => {
    const s = new Session();
    s.prompt('find the endpoint list in the docs');
    for (const p of pages)
      s.call(
        'WebFetch',
        { url: `https://example.com/${p}`, prompt: 'list the endpoints' },
        'Request failed with status code 404',
        false,
      );
    return s;
  };

  it('a dozen guessed URLs, each a 404, are a hunt going nowhere', () => {
    const s = guessPages([...GUESSES, 'v1/docs', 'docs/v2/api', 'api-docs', 'docs/api/v3', 'help/api', 'docs/latest']);
    // nudged within the dozen, at whatever count the levels set; and not at the first few, which exploration makes
    assert.equal(s.actions()[0], 'nudge');
    assert.ok(Number(s.timeline[0]!.split('@')[1]) > 3, s.timeline.join(' '));
  });

  it('pages guessed on one site are one hunt: nudged within six 404s, where a streak alone takes eight', () => {
    const s = guessPages(GUESSES);
    assert.equal(s.actions()[0], 'nudge');
    assert.match(
      s.decisions.find((d) => d.action === 'nudge')!.message!,
      /^stallguard: no page asked of `example\.com` is there: tried \d+/,
    );
  });

  it('pages guessed on the hosts of one site are one hunt: docs.example.com, api.example.com, example.com', () => {
    const s = new Session();
    s.prompt('find the webhook signature header in the docs');
    const hosts = ['docs', 'docs', 'api', '', 'docs', 'developer'].map((h) => (h ? `${h}.example.com` : 'example.com'));
    for (const [i, host] of hosts.entries())
      s.call(
        'WebFetch',
        { url: `https://${host}/v${i}/webhooks`, prompt: 'signature header' },
        'Request failed with status code 404',
        false,
      );
    assert.match(
      s.decisions.find((d) => d.action === 'nudge')?.message ?? '',
      /no page asked of `example\.com` is there/,
    );
  });

  it('one page fetched again with reworded prompts, telling the same each time, is nudged', () => {
    const s = new Session();
    s.prompt('read the changelog');
    const answer = 'The page lists versions 2.3.0 and 2.2.0 only; nothing about 2.4.';
    for (const prompt of [
      'what changed in 2.4',
      'list changes in version 2.4',
      'find the 2.4 release notes',
      'does it mention 2.4.0?',
      'summarise the latest version',
    ])
      s.call('WebFetch', { url: 'https://example.com/changelog', prompt }, answer);
    assert.equal(s.actions()[0], 'nudge');
  });

  it('one page fetched with the prompt reworded, told each time in other words that it is not there, is nudged', () => {
    const s = new Session();
    s.prompt('find how often webhooks are retried');
    const actions = fetchEach(s, webhooks, [
      ['What is the retry limit for webhooks?', 'The page does not mention a retry limit for webhooks.'],
      ['How many times are failed deliveries retried?', 'I could not find any information about retries here.'],
      ['Describe the retry and backoff policy', 'The retry policy is not documented in the provided content.'],
    ]);
    assert.deepEqual(actions, [undefined, undefined, 'nudge']);
  });

  it('one page asked three things, each answered, or pages said to lack a thing one after another, are reading', () => {
    const s = new Session();
    s.prompt('wire up the webhooks');
    fetchEach(s, webhooks, [
      ['How are webhooks signed?', 'Webhooks are signed with HMAC-SHA256 using the endpoint secret.'],
      ['Which event types exist?', 'Event types: invoice.paid, invoice.failed, customer.created.'],
      ['What is the payload format?', 'The payload is JSON with id, type, created and data fields.'],
    ]);
    for (const page of ['retries', 'limits', 'errors'])
      s.call(
        'WebFetch',
        { url: `https://docs.example.com/api/${page}`, prompt: 'Is there a retry limit?' },
        `The ${page} page does not mention a retry limit.`,
      );
    assert.deepEqual(s.actions(), []);
  });

  it('a row deleted and inserted again, failing on the same duplicate key each round, is a cycle', () => {
    const s = new Session();
    s.prompt('seed the database');
    const duplicate =
      'ERROR:  duplicate key value violates unique constraint "users_pkey"\nDETAIL:  Key (id)=(1) already exists.';
    for (let i = 0; i < 4; i++) {
      s.bash(`psql -c "DELETE FROM users WHERE email = 'a@b.c'"`, 'DELETE 0');
      s.bash(`psql -c "INSERT INTO users (id, email) VALUES (1, 'a@b.c')"`, duplicate, false);
    }
    assert.equal(s.actions()[0], 'nudge');
  });
});

describe('edits whose effect never shows', () => {
  it('a file that may not be written, written with Write, a redirect and tee, is an edit refused each time', () => {
    const s = new Session();
    s.prompt();
    const site = '/etc/nginx/sites-available/app';
    s.call('Write', { file_path: site, content: 'server {}' }, `EACCES: permission denied, open '${site}'`, false);
    s.bash(`echo 'server {}' > ${site}`, `bash: ${site}: Permission denied`, false);
    const d = s.bash(`echo 'server {}' | tee ${site}`, `tee: ${site}: Permission denied`, false);
    assert.equal(d.action, 'nudge');
    assert.equal(d.signals[0]!.code, 'EDIT_REJECTED');
  });

  it('a write refused, then one the shell could not parse, then refused again, is two refusals and a mistake', () => {
    const s = new Session();
    s.prompt();
    const site = '/etc/nginx/sites-available/app';
    s.bash(`cat <<'EOF' > ${site}\nserver {}\nEOF`, `/bin/bash: line 1: ${site}: Permission denied`, false);
    s.bash(
      `sudo bash -c 'cat <<"EOF" > ${site}\nserver { (}\nEOF'`,
      "bash: -c: line 2: syntax error near unexpected token `('",
      false,
    );
    s.bash(`echo 'server {}' > ${site}`, `bash: ${site}: Permission denied`, false);
    assert.deepEqual(s.timeline, []);
  });

  const file = `${P}/src/app.py`;
  const text = '     1\timport os\n     2\t\n     3\t\n     4\tprint(os.getcwd())';

  it('blank lines "removed" with awk, sed and python in turn, the file the same at every read, is nudged', () => {
    const s = new Session();
    s.prompt('remove the blank lines in app.py');
    s.call('Read', { file_path: file }, text);
    s.bash("awk 'NF' src/app.py > /tmp/app.py && mv /tmp/app.py src/app.py", '');
    s.call('Read', { file_path: file }, text);
    s.bash("sed -i '/^$/d' src/app.py", '');
    assert.equal(s.call('Read', { file_path: file }, text).action, 'allow');
    s.bash(`python3 -c "import re; p='src/app.py'; open(p,'w').write(re.sub('\\n+', '\\n', open(p).read()))"`, '');
    const d = s.call('Read', { file_path: file }, text);
    assert.equal(d.action, 'nudge');
    assert.match(
      d.message ?? '',
      /`Read src\/app\.py` shows the same file after each of 3 edits: they do not take effect/,
    );
  });

  it('a setting changed three ways, grep finding the same line after each, is nudged', () => {
    const s = new Session();
    s.prompt('set foo to 2 in cfg.py');
    s.bash('grep -n foo cfg.py', '12:foo  =  1');
    s.bash("sed -i 's/foo = 1/foo = 2/' cfg.py", '');
    s.bash('grep -n foo cfg.py', '12:foo  =  1');
    s.bash("sed -i 's/foo=1/foo=2/' cfg.py", '');
    assert.equal(s.bash('grep -n foo cfg.py', '12:foo  =  1').action, 'allow');
    s.bash("perl -pi -e 's/foo = 1/foo = 2/' cfg.py", '');
    const d = s.bash('grep -n foo cfg.py', '12:foo  =  1');
    assert.equal(d.action, 'nudge');
    assert.match(d.message ?? '', /shows the same file after each of 3 edits/);
  });

  it('the same grep of one file after edits of other files, finding the same line, is no edit failing to show', () => {
    const s = new Session();
    s.prompt('use the timeout from cfg.py everywhere');
    s.bash('grep -n timeout cfg.py', '4:timeout = 30');
    for (const f of ['api.py', 'worker.py', 'cli.py', 'jobs.py']) {
      s.call('Edit', { file_path: `${P}/${f}`, old_string: 'timeout=10', new_string: 'timeout=cfg.timeout' }, 'ok');
      s.bash('grep -n timeout cfg.py', '4:timeout = 30');
    }
    assert.ok(!s.decisions.some((d) => d.signals?.some((x) => x.code === 'UNSEEN_EDIT')));
  });

  it('edits that show at each read are work, and so are reads of one file between edits of another', () => {
    const s = new Session();
    s.prompt('tidy app.py');
    s.call('Read', { file_path: file }, text);
    for (let i = 0; i < 4; i++) {
      s.bash(`sed -i '${i + 2}d' src/app.py`, '');
      s.call('Read', { file_path: file }, `${text}\n# pass ${i}`);
    }
    for (let i = 0; i < 4; i++) {
      s.call('Edit', { file_path: `${P}/src/util.py`, old_string: `a${i}`, new_string: `b${i}` }, 'ok');
      s.call('Read', { file_path: file }, text);
    }
    assert.deepEqual(s.actions(), []);
  });

  it('a read Claude Code answers "unchanged since last read" is a re-read, the first such answer too', () => {
    const s = new Session();
    s.prompt('look at the config');
    s.call('Read', { file_path: `${P}/config.yml` }, 'port: 3000');
    s.call(
      'Read',
      { file_path: `${P}/config.yml`, offset: 1 },
      'File unchanged since last read. The content from the earlier Read tool_result in this conversation is ' +
        'still current — refer to that instead of re-reading.',
    );
    assert.equal(s.state.agents.main!.window.at(-1)!.reread, true);
    s.call('Read', { file_path: `${P}/config.yml`, offset: 2 }, 'Wasted call — file unchanged since your last Read.');
    assert.equal(s.state.agents.main!.window.at(-1)!.reread, true);
  });
});
