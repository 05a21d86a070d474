import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { classify } from './classify.ts';

// What a shell command is, and what it acts on, read from the command alone.

const shell = (command: string) => classify({ name: 'Bash', input: { command } }, { command });

describe('what a shell command is', () => {
  it('a program fetched by a runner is that program: `npx vitest run` runs tests', () => {
    assert.equal(shell('npx vitest run').cls, 'test');
    assert.equal(shell('npx -y tsc --noEmit').cls, 'test');
  });

  it('a request that sends nothing reads its URL; one that sends, or a wait before asking, is not a read', () => {
    const get = shell('curl -sI http://localhost:3000/health');
    assert.deepEqual([get.cls, get.target], ['read', 'http://localhost:3000/health']);
    assert.equal(shell(`curl -X POST localhost:3000/users -d '{}'`).cls, 'exec');
    assert.equal(shell('sleep 5 && curl -s localhost:3000/health').cls, 'poll');
    assert.equal(shell('pm2 restart web && curl -I https://example.com').cls, 'exec');
  });

  it('a request is at its address, whichever client asks it, and this machine is one by any of its names', () => {
    const intents = (c: string) => shell(c).intents;
    for (const c of [
      'curl http://localhost:8080/api/items',
      'curl -v http://127.0.0.1:8080/api/items/',
      'wget -qO- "http://localhost:8080/api/items?page=2"',
      'http GET :8080/api/items',
      'curl -s 0.0.0.0:8080/api/items',
    ])
      assert.deepEqual(intents(c), ['localhost:8080/api/items'], c);
    assert.deepEqual(shell('wget -qO- https://api.example.com/v1/me').programs, ['wget']);
    assert.notDeepEqual(intents('curl localhost:8080/api/items'), intents('curl localhost:8081/api/items'));
    // a repository's URL is what git acts on, not a page
    assert.deepEqual(intents('git clone https://github.com/me/app'), ['git github.com/me/app']);
  });

  it("git's commands on the whole repository are one intent whatever remote or branch they name", () => {
    for (const c of ['git pull', 'git pull --rebase', 'git pull origin main', 'git -C /home/dev/proj pull origin dev'])
      assert.deepEqual(shell(c).intents, ['git pull'], c);
    assert.deepEqual(shell('git push -u origin feature').intents, ['git push']);
    // what the other commands act on is still their own: a file, a branch merged
    assert.notDeepEqual(shell('git checkout src/a.ts').intents, shell('git checkout src/b.ts').intents);
  });

  it('one tool by other names is one intent, and still its own program', () => {
    assert.deepEqual(shell('docker-compose up -d').intents, shell('docker compose up -d').intents);
    // the package managers of one package.json: its installs and its scripts
    for (const c of ['yarn install', 'pnpm install']) assert.deepEqual(shell(c).intents, ['npm install'], c);
    assert.deepEqual(shell('yarn build').intents, shell('npm run build').intents);
    assert.deepEqual(shell('pip3.12 install requests').intents, shell('pip install requests').intents);
    // a program that is not there is named as it was called
    assert.deepEqual(shell('yarn install').programs, ['yarn']);
    assert.deepEqual(shell('docker-compose up -d').programs, ['docker-compose']);
  });

  it('one intent through wrappers, shells and quoting; versions alike, other numbers kept', () => {
    const intents = (c: string) => shell(c).intents;
    assert.deepEqual(intents('adb devices'), ['adb devices']);
    assert.deepEqual(intents('cmd /c adb devices'), ['adb devices']);
    assert.deepEqual(intents(`powershell -Command "adb devices"`), ['adb devices']);
    // PowerShell's parameters are words: -NoProfile hands it no code, -File names the script it runs
    assert.deepEqual(intents('powershell -NoProfile -ExecutionPolicy Bypass -File "C:\\Users\\me\\cleanup.ps1"'), [
      'cleanup.ps1',
    ]);
    assert.deepEqual(intents('pwsh -NoProfile -c "adb devices"'), ['adb devices']);
    assert.deepEqual(intents(`bash -lc 'source ~/.nvm/nvm.sh && nvm install v24.12.0'`), ['nvm #']);
    assert.deepEqual(intents('nvm install 24.12.0 --latest-npm'), ['nvm #']);
    assert.deepEqual(intents('bash scripts/verify-plugin.sh 2>&1 | cat'), ['verify-plugin.sh']);
    assert.notDeepEqual(
      intents('curl -s https://api.x.com/jobs/41/logs'),
      intents('curl -s https://api.x.com/jobs/42/logs'),
    );
  });

  it('a look names the folder or file it looks at, a bare name as well as a path', () => {
    assert.deepEqual([shell('ls lib').target, shell('cat Makefile').target], ['lib', 'Makefile']);
    assert.equal(shell('ls -la src/api').target, 'src/api');
    assert.equal(shell('head -n 20').target, undefined);
  });

  it("Windows' searchers are searches, through cmd too: a findstr that finds nothing failed at nothing", () => {
    assert.equal(shell('cmd /c findstr /n "TODO" src\\main.c').cls, 'search');
    assert.equal(shell('Select-String -Path *.cs -Pattern Foo').cls, 'search');
  });

  it("output thrown away or sent to a device is no edit: Windows' nul, a serial port", () => {
    assert.equal(shell('cmd /c type "apps\\web\\badge.tsx" 2>nul || echo missing').cls, 'read');
    assert.equal(shell("stty -F /dev/ttyS0 115200 raw; printf '\\003' > /dev/ttyS0").cls, 'exec');
    assert.equal(shell('echo done > notes.md').cls, 'edit');
  });

  it("what a wrapper runs is its program, past the wrapper's flags; a test, a brace or a flag is none", () => {
    const intents = (c: string) => shell(c).intents;
    assert.deepEqual(intents('sudo -u postgres psql -c "select 1"'), ['psql select 1']);
    assert.deepEqual(intents('command -v figlet'), ['figlet']);
    // two scripts that each test for a folder first share no intent for it
    assert.deepEqual(intents('[ -d "$repo/.git" ] || continue'), []);
    assert.deepEqual(intents('Get-ChildItem . | ForEach-Object { $_.Name }'), ['foreach-object $_.name']);
  });

  it('what a substitution runs is a word of the command, not what the command acts on; it is where it is all', () => {
    const intents = (c: string) => shell(c).intents;
    // `$(pwd)` in two different commands does not make them one thing tried twice
    assert.deepEqual(intents('GOCACHE=$(pwd)/.cache/go-build go test ./...'), ['go test']);
    assert.deepEqual(intents('cd "$(git rev-parse --show-toplevel)" && npm run lint'), ['npm lint']);
    assert.deepEqual(shell('cd "$(git rev-parse --show-toplevel)" && npm run lint').programs, ['npm']);
    // a command that only keeps what its substitution printed acts on what the substitution runs
    assert.deepEqual(intents('out=$(npm test 2>&1); echo "$out" | tail -5'), ['npm test']);
  });

  it("a compound command runs what is inside it: a loop's or a test's keywords are no programs", () => {
    // a loop that edits files edits: what runs after it has something changed before it
    assert.equal(shell('for f in src/*.ts; do sed -i "s/var /let /" "$f"; done').cls, 'edit');
    assert.equal(shell('if [ -f package.json ]; then npm test; else echo none; fi').cls, 'test');
    assert.equal(shell('until curl -sf localhost:3000/health; do sleep 2; done').cls, 'poll');
    // a look before the work is not what the command acts on
    assert.deepEqual(shell('git status && npm test').intents, ['npm test']);
    assert.deepEqual(shell('git status && cat notes.txt').intents, ['git status', 'cat notes.txt']);
    // two different loops share no `do` or `done`
    assert.deepEqual(shell('for r in api web; do git -C "$r" pull; done').intents, ['git pull']);
    assert.deepEqual(shell('while read l; do echo "$l"; done < list.txt').intents, []);
  });

  it('code handed on stdin is a script of its own each time; text cat passes on is read from nowhere', () => {
    const intents = (c: string) => shell(c).intents;
    // two different here-document scripts are not one thing tried twice, as two `python -c` are not
    assert.deepEqual(intents("python3 - <<'PY'\nimport json\nprint(1)\nPY"), []);
    assert.deepEqual(intents("cat <<'EOF' | python3 -\nprint(2)\nEOF"), []);
    // writing a script to a scratch file and running it runs the script; the cat reads nothing
    const shape = shell("cat > /tmp/totals.py <<'EOF'\nprint(1)\nEOF\npython3 /tmp/totals.py");
    assert.equal(shape.cls, 'exec');
    assert.deepEqual(shape.intents, ['totals.py']);
    assert.equal(shell('cat notes/todo.md').cls, 'read');
  });

  it("a look at the system's state is a read, whatever it is piped into: disk, memory, mounts, who and where", () => {
    for (const c of [
      'sudo du -sh /* 2>/dev/null | sort -hr | head -10',
      'df -h /',
      'free -m',
      'lsblk',
      'findmnt -T / -o TARGET,SOURCE',
      'uname -a',
      'whoami',
    ])
      assert.equal(shell(c).cls, 'read', c);
    // what starts or stops something is not: a mount, a kill
    assert.equal(shell('sudo mount -t tmpfs tmpfs /mnt').cls, 'exec');
  });

  it('code handed inline behind flags run together is a script of its own, as `python -c` is', () => {
    const intents = (c: string) => shell(c).intents;
    // a one-liner's regular expression is no path: `/\S/` is not a file named s
    assert.deepEqual(intents("perl -i -ne 'print if /\\S/' notes.txt"), []);
    assert.deepEqual(intents("perl -lane 'print $F[0]' data.tsv"), []);
    assert.deepEqual(intents("node -pe 'process.version'"), []);
    // upper case is another flag: python -E ignores the environment and still runs its script
    assert.deepEqual(intents('python3 -E tools/gen.py'), ['gen.py']);
    // a flag after the script is the script's: `-c` here is pytest's configuration
    assert.equal(shell('python -m pytest -c pytest.ini tests/').cls, 'test');
    assert.deepEqual(intents('python3 tools/check.py -c strict'), ['check.py']);
  });

  it('a script handed to PowerShell is read as PowerShell: its backslashes are a path', () => {
    assert.deepEqual(shell('powershell.exe -NoProfile -Command "python C:\\Users\\dev\\writer.py"').intents, [
      'writer.py',
    ]);
  });

  it('a PowerShell variable set to a value runs nothing; set to a command, it runs that command', () => {
    const intents = (c: string) => shell(c).intents;
    assert.deepEqual(intents('$dir = "specs/001-auth"; $date = Get-Date -Format "yyyy-MM-dd"'), [
      'get-date yyyy-mm-dd',
    ]);
    assert.deepEqual(intents('$lines=Get-Content $path'), ['get-content $path']);
    assert.deepEqual(intents("@'\n# Title\n'@ | Set-Content -Path notes.md"), ['set-content notes.md']);
    assert.deepEqual(intents('New-Item -ItemType Directory -Path (Split-Path $p) -Force'), [
      'new-item directory',
      'split-path $p',
    ]);
  });
});

describe("where a file tool's call looks", () => {
  const gemini = (name: string, input: Record<string, unknown>, cls: 'read' | 'search') =>
    classify({ name, input }, { cls });

  it('folders listed by name are each their own place, in either spelling of Gemini CLI', () => {
    assert.equal(gemini('list_directory', { dir_path: 'src/api' }, 'read').target, 'src/api');
    assert.equal(gemini('list_directory', { path: 'src/api' }, 'read').target, 'src/api');
    assert.notEqual(
      gemini('list_directory', { dir_path: 'src/api' }, 'read').target,
      gemini('list_directory', { dir_path: 'src/web' }, 'read').target,
    );
  });

  it("the files of a list, and the pages a fetch's prompt names, are where a read looks", () => {
    assert.equal(gemini('read_many_files', { paths: ['a.ts', 'b.ts'] }, 'read').target, 'a.ts b.ts');
    const fetch = (prompt: string) => gemini('web_fetch', { prompt }, 'read').target;
    assert.equal(fetch('Summarise https://example.com/docs/api, the auth part'), 'https://example.com/docs/api');
    assert.equal(fetch('Is https://example.com/a?'), 'https://example.com/a');
    assert.equal(fetch('What does https://example.com/a say?'), fetch('List the headings of https://example.com/a'));
    assert.notEqual(fetch('Summarise https://example.com/a'), fetch('Summarise https://example.com/b'));
  });

  it('a search narrowed to other files looks somewhere else, however the files are named', () => {
    const one = gemini('grep_search', { pattern: 'topbar', include_pattern: 'templates/base.html' }, 'search');
    const all = gemini('grep_search', { pattern: 'topbar', include_pattern: 'templates/**/*.html' }, 'search');
    assert.deepEqual([one.target, one.term], ['templates/base.html', 'topbar']);
    assert.notEqual(one.target, all.target);
    assert.equal(
      gemini('grep_search', { pattern: 'x', dir_path: 'src', include: '*.ts' }, 'search').target,
      'src *.ts',
    );
  });
});
