import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Session, times } from '../../test/support/session.ts';

// The signals' hard cases, each in the shape real people's sessions showed: what looks like a loop and is
// work, and what looks like work and is a loop. Through the whole engine, as the hook runs it.

const P = '/home/dev/proj';
const FAIL = 'FAILED tests/test_total.py::test_sum - AssertionError: assert 3 == 4\n1 failed, 2 passed';

describe('lookups that find nothing', () => {
  it('checks for different files in one folder, none there, are exploration (PowerShell on Windows)', () => {
    const s = new Session();
    s.prompt();
    for (const name of ['.dockerignore', 'Dockerfile*', '.prettierrc*', '.npmrc', '.editorconfig'])
      s.call(
        'shell_command',
        { command: `Get-ChildItem -Path C:\\Users\\dev\\proj -Filter ${name} -Force` },
        'Exit code: 0\nWall time: 1 seconds\nOutput:\n',
      );
    assert.deepEqual(s.actions(), []);
  });

  it('a formatter that succeeds in silence is no attempt beside two searches that find nothing', () => {
    const s = new Session();
    s.prompt();
    // Codex: each command through bash -lc, its answer in a JSON envelope with the exit code
    const shell = (command: string, output: string, code: number) =>
      s.call(
        'shell',
        { command: ['bash', '-lc', command], workdir: P },
        JSON.stringify({ output, metadata: { exit_code: code, duration_seconds: 0.1 } }),
        code === 0,
      );
    shell('gofmt -w internal/http/api/course_handler.go', '', 0);
    shell('rg -n "finalize" internal/http/api/course_handler.go', '', 1);
    shell(
      "sed -n '260,360p' internal/http/api/course_handler.go",
      'type moduleRequest struct {\n\tTitle string\n}\n',
      0,
    );
    shell('grep -n "finalize" internal/http/api/course_handler.go', '', 1);
    assert.deepEqual(s.actions(), []);
  });

  it('candidate folders listed by their bare names, none of them there, are places explored', () => {
    const s = new Session();
    s.prompt();
    for (const dir of ['lib', 'app', 'packages', 'apps'])
      s.bash(`ls ${dir}`, `ls: cannot access '${dir}': No such file or directory`, false);
    assert.deepEqual(s.actions(), []);
  });

  it('one name hunted in place after place, with tool after tool, found nowhere, is a hunt going nowhere', () => {
    const s = new Session();
    s.prompt();
    s.call('Grep', { pattern: 'update-export-files', path: `${P}/src` }, 'No matches found');
    s.bash('rg -n "update-export-files" packages', '', false);
    s.call('Glob', { pattern: '**/update-export-files/**' }, 'No files found');
    s.call('Read', { file_path: `${P}/src/tabs/Deploy.tsx` }, '1\u2192export function Deploy() {}');
    s.bash('find . -path "*update-export-files*" -not -path "./node_modules/*"', '');
    s.call('Grep', { pattern: 'updateExportFiles', path: P }, 'No matches found');
    // caught within these five lookups (a streak of fruitless lookups alone takes eight), named by the thing
    // hunted as the latest call spelled it
    assert.equal(s.actions()[0], 'nudge');
    assert.match(
      s.decisions.find((d) => d.action === 'nudge')!.message!,
      /^stallguard: `\w+` is found nowhere: looked for it \d+ ways/,
    );
  });

  it('one name looked for in three places and found in the fourth is a search that worked', () => {
    const s = new Session();
    s.prompt();
    for (const dir of ['src', 'lib', 'packages'])
      s.call('Grep', { pattern: 'updateExportFiles', path: `${P}/${dir}` }, 'No matches found');
    s.call(
      'Grep',
      { pattern: 'updateExportFiles', path: `${P}/apps` },
      'apps/admin/route.ts:12: export function updateExportFiles',
    );
    assert.deepEqual(s.actions(), []);
  });

  it('ports checked one by one, nothing on any of them, are answers, not failures alike', () => {
    const s = new Session();
    s.prompt();
    for (const port of ['3000', '5432', '6379', '8080']) s.bash(`lsof -i :${port}`, '', false);
    assert.deepEqual(s.actions(), []);
  });

  it('searches that find something between the empty ones are progress', () => {
    const s = new Session();
    s.prompt();
    for (const [term, found] of [
      ['AbstractUser', ''],
      ['AUTH_USER_MODEL', 'api/models.py:14: user = ...'],
      ['department', ''],
      ['get_user_model', 'views_auth.py:9: from django...'],
      ['reviews', ''],
      ['providers', 'types.ts:980: providers?: string[]'],
    ])
      s.call('Grep', { pattern: term, path: `${P}/src` }, found || 'No matches found');
    assert.deepEqual(s.actions(), []);
  });

  it('the same name reworded against the same folder, found nowhere, is a loop', () => {
    const s = new Session();
    s.prompt();
    for (const term of ['FloorDiv', 'floor_div', 'floordiv', 'FLOOR_DIV'])
      s.call('Grep', { pattern: term, path: `${P}/src` }, 'No files found');
    assert.deepEqual(s.actions().slice(0, 1), ['nudge']);
  });

  it('the same folder named through the shell (`src`) and through a tool (its full path) is one place', () => {
    const s = new Session();
    s.prompt();
    s.bash('grep -rn "FloorDiv" src', '', false);
    s.call('Grep', { pattern: 'floor_div', path: `${P}/src` }, 'No files found');
    s.bash('grep -rni "floordiv" src', '', false);
    s.call('Grep', { pattern: 'FLOOR_DIV', path: `${P}/src` }, 'No files found');
    assert.deepEqual(s.actions().slice(0, 1), ['nudge']);
  });

  it('a grep that exits 1 with nothing printed found nothing: it did not fail', () => {
    const s = new Session();
    s.prompt();
    for (const term of ['alpha', 'beta', 'gamma', 'delta'])
      s.call(
        'shell_command',
        { command: `rg -n "${term}" src` },
        'Exit code: 1\nWall time: 0 seconds\nOutput:\n',
        false,
      );
    assert.equal(
      s.decisions.some((d) => d.signals.some((x) => x.code === 'SAME_FAILURE')),
      false,
    );
    assert.deepEqual(s.actions(), []);
  });

  it('so does one that Claude Code reports as its exit code alone, and a grep behind xargs (exit 123)', () => {
    const s = new Session();
    s.prompt();
    s.bash('rg -n "alpha" src', '', false);
    s.bash('grep -rn "beta" src', '', false);
    s.bash('find src -name "*.ts" | xargs grep -l "gamma"', '', false);
    s.call('Bash', { command: 'grep -rn "delta" lib' }, 'Exit code 123', false);
    assert.equal(s.state.agents.main!.window.at(-1)!.empty, true);
    assert.deepEqual(s.actions(), []);
  });

  it('parallel calls in one response are one attempt; the same calls in separate responses are a loop', () => {
    const rounds = (batched: boolean) => {
      const s = new Session();
      s.prompt();
      // the agent has shown that it closes its batches (until it does, every call is a step of its own)
      s.call('Read', { file_path: `${P}/README.md` }, '# proj');
      s.batch();
      for (const term of ['FloorDiv', 'floor_div', 'floordiv', 'FLOOR_DIV']) {
        s.call('Grep', { pattern: term, path: `${P}/src` }, 'No files found');
        if (!batched) s.batch();
      }
      s.batch();
      for (let i = 0; i < 4; i++) {
        s.bash('npm test', FAIL, false);
        if (!batched) s.batch();
      }
      return s.actions();
    };
    assert.deepEqual(rounds(true), []);
    assert.deepEqual(rounds(false).slice(0, 1), ['nudge']);
  });

  it('a search in what an earlier command printed searches there: the same name in other places is exploration', () => {
    const s = new Session();
    s.prompt();
    for (const dir of ['/usr/bin', '/usr/local/bin', '/opt', '/usr/share/applications'])
      s.bash(`ls ${dir} | grep -i teams`, '');
    assert.deepEqual(s.actions(), []);
  });
});

describe('lookups whose answers are not seen', () => {
  it("Codex's hosted web searches, whose results its log does not hold, are no lookups that found nothing", () => {
    const s = new Session();
    s.prompt();
    for (const query of ['nvm install latest node', 'nvm README install latest', 'nvm install node alias', 'nvm lts'])
      s.call('web_search', { type: 'search', query }, 'completed', null);
    for (const query of ['uv activate docs', 'uv activate command', 'astral uv activate', 'uv venv activate'])
      s.call('web_search', { type: 'search', query }, '', true);
    assert.deepEqual(s.actions(), []);
  });
});

describe('one thing done to many objects', () => {
  const DRAFTS = [
    '059C0828-5689-4427-8536-D2FD2A08F3F2',
    '3F5130F9-233D-4572-AB8C-81C5E93275BF',
    '63941757-25DD-4D76-81C9-6BD13F690E78',
    '974ADBB2-4B71-49C3-9402-0C5110CF9839',
    '2A467831-81F8-4C61-828A-74920E889E6D',
    '34CE1F53-3F43-46AA-83EC-453E638597DE',
  ];

  it('drafts archived one by one, through an MCP tool that names each by its UUID, are six jobs done', () => {
    const s = new Session();
    s.prompt();
    for (const uuid of DRAFTS) s.call('mcp__Drafts__drafts_archive', { uuid }, `Archived draft ${uuid}`);
    assert.deepEqual(s.timeline, []);
    const t = new Session();
    t.prompt();
    for (const uuid of DRAFTS) t.call('mcp__Drafts__drafts_trash', { uuid }, 'Draft moved to trash.');
    assert.deepEqual(t.timeline, []);
  });

  it('statements run one at a time, each acknowledged alike, are one job done to many things', () => {
    const sql = new Session();
    sql.prompt();
    for (const c of ['a', 'b', 'c', 'd', 'e'])
      sql.bash(`psql -d app -c "ALTER TABLE users ADD COLUMN ${c}_at timestamptz"`, 'ALTER TABLE');
    const keys = new Session();
    keys.prompt();
    for (const c of ['a', 'b', 'c', 'd', 'e']) keys.bash(`redis-cli SET feature:${c} on`, 'OK');
    const issues = new Session();
    issues.prompt();
    for (const title of ['Fix login', 'Add docs', 'Refactor db', 'Bump deps', 'CI cache'])
      issues.call('mcp__linear__create_issue', { title, team: 'ENG' }, '{"success":true}');
    assert.deepEqual([sql.timeline, keys.timeline, issues.timeline], [[], [], []]);
  });

  it('one thing tried with other flags or wrappers, answering the same each time, is still retried', () => {
    const s = new Session();
    s.prompt();
    for (const c of ['npm install sharp', 'npm install sharp --force', 'npm install sharp --legacy-peer-deps'])
      s.bash(c, 'up to date, audited 412 packages in 2s');
    assert.deepEqual(s.timeline, ['nudge@3']);
  });

  it('a payload varied and refused alike, though curl exits 0, is one thing tried again', () => {
    const s = new Session();
    s.prompt();
    for (const body of ['{"name":"a"}', '{"name":"a","x":1}', '{"Name":"a"}'])
      s.bash(
        `curl -s -X POST localhost:3000/api/items -d '${body}'`,
        '{"error":"validation failed: name is required"}',
      );
    assert.deepEqual(s.timeline, ['nudge@3']);
  });

  it('one draft archived again and again, refused the same way, is still a loop', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 3; i++)
      s.call('mcp__Drafts__drafts_archive', { uuid: DRAFTS[0] }, `Error: draft ${DRAFTS[0]} is locked`, false);
    assert.deepEqual(s.timeline, ['nudge@3']);
  });
});

describe('bookkeeping', () => {
  it('task-list updates with the same answer are neither work nor a loop', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 6; i++) {
      s.call(
        'TodoWrite',
        { todos: [{ content: 'step', status: i % 2 ? 'completed' : 'in_progress' }] },
        'Todos have been modified successfully.',
      );
      s.call(
        'Edit',
        { file_path: `${P}/src/f${i}.ts`, old_string: 'a', new_string: `b${i}` },
        'The file has been updated successfully.',
      );
    }
    assert.deepEqual(s.actions(), []);
  });

  it('a turn handed to the person is theirs: a plan sent back for approval after each rejection is no loop', () => {
    const s = new Session();
    s.prompt();
    const rejected = "The user doesn't want to proceed with this tool use. The tool use was rejected.";
    for (let i = 0; i < 4; i++) {
      s.call('ExitPlanMode', { plan: `1. change the totals\n2. run the tests (draft ${i})` }, rejected, false);
      s.call('AskUserQuestion', { questions: [{ question: 'Which currency?' }] }, 'User answered: EUR');
    }
    assert.deepEqual(s.actions(), []);
  });

  it(
    'do not hide a loop between them: a failing run repeated ' + 'with task-list updates in between is still repeated',
    () => {
      const s = new Session();
      s.prompt();
      times(5, () => {
        s.bash('pytest -q', FAIL, false);
        s.call('update_plan', { plan: [{ step: 'fix the sum', status: 'in_progress' }] }, 'Plan updated');
      });
      assert.equal(s.actions()[0], 'nudge');
    },
  );
});

describe('edits that change nothing, and edits undone', () => {
  it(
    'an edit whose old and new text are the same is no change: ' +
      'the same failure after it is the same failure again',
    () => {
      const s = new Session({ judge: { enabled: false } });
      s.prompt();
      for (let i = 0; i < 3; i++) {
        s.call(
          'Edit',
          { file_path: `${P}/src/total.py`, old_string: 'return a + b', new_string: 'return a + b' },
          'The file has been updated successfully.',
        );
        s.bash('pytest -q', FAIL, false);
      }
      // three failing runs with nothing changed in between: the floor
      assert.deepEqual(s.actions().slice(0, 1), ['nudge']);
    },
  );

  it('a real change between the failing runs is test-driven work', () => {
    const s = new Session({ judge: { enabled: false } });
    s.prompt();
    for (let i = 0; i < 3; i++) {
      s.call(
        'Edit',
        { file_path: `${P}/src/total.py`, old_string: `return a + b + ${i}`, new_string: `return a + b + ${i + 1}` },
        'The file has been updated successfully.',
      );
      s.bash('pytest -q', FAIL, false);
    }
    assert.deepEqual(s.actions(), []);
  });

  it('sees an edit undone in the edits themselves, without a git repository', () => {
    const s = new Session();
    s.prompt();
    const flip = (from: string, to: string) =>
      s.call(
        'Edit',
        { file_path: `${P}/src/cfg.ts`, old_string: from, new_string: to },
        'The file has been updated successfully.',
      );
    flip('retries: 3', 'retries: 5');
    flip('retries: 5', 'retries: 3');
    const edits = () => s.state.agents.main!.window.filter((e) => e.cls === 'edit').map((e) => !!e.returned);
    assert.deepEqual(edits(), [false, true], 'the second edit undoes the first');
    // another change of the same line is not a return
    flip('retries: 3', 'retries: 4');
    assert.deepEqual(edits(), [false, true, false]);
  });

  it('sees an edit undone in the words of each agent (opencode, Copilot, pi)', () => {
    for (const [from, to] of [
      [
        { filePath: 'src/cfg.ts', oldString: 'retries: 3', newString: 'retries: 5' },
        { filePath: 'src/cfg.ts', oldString: 'retries: 5', newString: 'retries: 3' },
      ],
      [
        { path: 'src/cfg.ts', old_str: 'retries: 3', new_str: 'retries: 5' },
        { path: 'src/cfg.ts', old_str: 'retries: 5', new_str: 'retries: 3' },
      ],
      [
        { path: 'src/cfg.ts', edits: [{ oldText: 'retries: 3', newText: 'retries: 5' }] },
        { path: 'src/cfg.ts', edits: [{ oldText: 'retries: 5', newText: 'retries: 3' }] },
      ],
    ] as [Record<string, unknown>, Record<string, unknown>][]) {
      const s = new Session();
      s.prompt();
      s.call('edit', from, 'Edit applied successfully.');
      s.call('edit', to, 'Edit applied successfully.');
      assert.deepEqual(
        s.state.agents.main!.window.map((e) => [e.cls, !!e.returned]),
        [
          ['edit', false],
          ['edit', true],
        ],
        JSON.stringify(from),
      );
    }
  });

  it('sees a Codex patch undone by the patch that follows it', () => {
    const s = new Session();
    s.prompt();
    const patch = (from: string, to: string) =>
      s.call(
        'apply_patch',
        { input: `*** Begin Patch\n*** Update File: src/cfg.ts\n@@\n-${from}\n+${to}\n*** End Patch` },
        'Success. Updated the following files:\nM src/cfg.ts',
      );
    patch('retries: 3', 'retries: 5');
    patch('retries: 5', 'retries: 3');
    assert.deepEqual(
      s.state.agents.main!.window.map((e) => [e.cls, !!e.returned]),
      [
        ['edit', false],
        ['edit', true],
      ],
    );
  });

  it('the same whole-file content written again and again is a loop', () => {
    const s = new Session();
    s.prompt();
    times(4, () =>
      s.call(
        'write_file',
        { file_path: `${P}/src/Form.jsx`, content: 'export default function Form() { return null; }\n' },
        'Successfully overwrote file: src/Form.jsx.',
      ),
    );
    assert.equal(s.actions()[0], 'nudge');
  });
});

describe('polls', () => {
  it('the same status whose answer differs only in clock digits is the same answer', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 6; i++) s.bash('cat deploy.status', `12:0${i}:1${i} status: failed (see log)`);
    assert.equal(s.actions()[0], 'nudge');
  });

  it('a poll whose answer moves is waiting, not a loop', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 20; i++) s.call('BashOutput', { bash_id: 'b1' }, `building... ${i * 5}% done`);
    assert.deepEqual(s.actions(), []);
  });

  it('a CI run still in progress, polled a dozen times, is waiting', () => {
    const s = new Session();
    s.prompt();
    times(12, () =>
      s.call(
        'run_shell_command',
        { command: 'gh run view 123 --json status,conclusion' },
        'Command: gh run view 123\nOutput: {"conclusion": "", "status": "in_progress"}\nExit Code: 0',
      ),
    );
    assert.deepEqual(s.actions(), []);
  });

  it('a look at CI runs, containers or pods after a pause, answering the same while it runs, is waiting too', () => {
    const s = new Session();
    s.prompt();
    for (const look of ['gh run list --limit 1', 'docker compose ps', 'kubectl describe pod web-7d9'])
      times(4, () => s.bash(`sleep 30 && ${look}`, 'in_progress  CI  main  push  123456  2m'));
    assert.deepEqual(s.actions(), []);
  });
});

describe('polls, continued', () => {
  it('a health check after a pause, refused while the server starts, is waiting: the call that succeeds runs', () => {
    const s = new Session();
    s.prompt();
    s.bash('npm run dev > /tmp/dev.log 2>&1 &', '');
    const refused = 'curl: (7) Failed to connect to localhost port 3000 after 0 ms: Connection refused';
    times(3, () => s.bash('sleep 5 && curl -s localhost:3000/health', refused, false));
    const up = s.bash('sleep 5 && curl -s localhost:3000/health', '{"ok":true}');
    assert.deepEqual([s.actions(), up.action], [[], 'allow']);
  });

  it('a server killed and started again in other ways, its check refused alike after each, is a loop', () => {
    const s = new Session();
    s.prompt();
    const refused = 'curl: (7) Failed to connect to localhost port 3000 after 0 ms: Connection refused';
    for (const restart of [
      'kill $(lsof -ti:3000); npm run dev > dev.log 2>&1 &',
      'pkill -f "next dev"; npm run dev > dev.log 2>&1 &',
      'lsof -ti:3000 | xargs kill -9; nohup npm run dev > dev.log 2>&1 &',
    ]) {
      s.bash(restart, '');
      s.bash('sleep 3 && curl -s localhost:3000', refused, false);
    }
    assert.deepEqual(s.timeline, ['nudge@6']);
  });

  it('a request that sends something is no poll, pause or not', () => {
    const s = new Session();
    s.prompt();
    const refused = '{"error":"duplicate key value violates unique constraint"}';
    times(5, () => s.bash(`sleep 1 && curl -s -X POST localhost:3000/users -d '{"name":"a"}'`, refused, false));
    assert.equal(s.actions()[0], 'nudge');
  });
});

describe('failures', () => {
  const delimiter = (line: number) =>
    `error: Input ended unexpectedly. Check if you have any unclosed delimiters\n  at ${P}/bar.yuck:${line}:24`;

  it('a config rewritten and reloaded, failing the same way each time, is a fix that does not take', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 4; i++) {
      s.call('Write', { file_path: `${P}/bar.yuck`, content: `(defwindow bar ${'(box)'.repeat(i + 1)}` }, 'ok');
      s.bash('eww reload', delimiter(45 + (i % 2)), false);
    }
    assert.deepEqual(s.timeline, ['nudge@8']);
    const nudge = s.decisions.find((d) => d.action === 'nudge')!.message!;
    assert.ok(nudge.startsWith('stallguard: `eww reload` fails the same way after each of 3 edits: '), nudge);
    assert.match(nudge, /they do not reach the failure: `Bash eww reload` x4/);
  });

  it('a test that fails the same way after two edits, then otherwise, is work going on', () => {
    const s = new Session();
    s.prompt();
    for (const [i, failure] of [FAIL, FAIL, FAIL, 'FAILED tests/test_total.py::test_mean - KeyError: n'].entries()) {
      s.call('Edit', { file_path: `${P}/total.py`, old_string: `v${i}`, new_string: `v${i + 1}` }, 'ok');
      s.bash('pytest -q tests/test_total.py', failure, false);
    }
    assert.deepEqual(s.actions(), []);
  });

  it('a build piped into tail that prints its failure failed, whatever tail exited with', () => {
    const s = new Session();
    s.prompt();
    times(3, () =>
      s.bash(
        './gradlew assembleDebug --console=plain 2>&1 | tail -15',
        'FAILURE: Build failed with an exception.\n* What went wrong:\nExecution failed for task :app:kspDebugKotlin.',
      ),
    );
    assert.equal(s.actions()[0], 'nudge');
  });

  it('a script that catches its error and prints it failed, though it exited 0', () => {
    const s = new Session();
    s.prompt();
    for (const variant of ['fail', 'FAIL:', 'fail'])
      s.bash(
        `node -e "require('./db').query('SELECT 1').catch(e => console.error('${variant}', e.message))"`,
        `${variant} password authentication failed for user "app"`,
      );
    assert.equal(s.actions()[0], 'nudge');
  });

  // the same linter run three ways, printing nothing each time, with a listing between
  const silentLints = (ok: boolean | null) => {
    const s = new Session();
    s.prompt();
    s.bash('pylint reproduce.py --notes="YES,???"', '', ok);
    s.bash('pylint reproduce.py --notes="YES,???" > pylint_output.txt', '', ok);
    s.bash('ls -la', 'total 584\nreproduce.py\npylint_output.txt', ok);
    s.bash('pylint reproduce.py --notes="YES,???" -f parseable', '', ok);
    return s.timeline;
  };

  it('a linter run three ways, printing nothing and not saying it passed, with nothing changed, told nothing', () => {
    // SWE-agent's harness gives no exit code: silence is all a run says
    assert.deepEqual(silentLints(null), ['nudge@4']);
  });

  it('a linter that passes in silence, run again, has said it passed', () => {
    assert.deepEqual(silentLints(true), []);
  });

  it('a call the person refused is an attempt that failed, not a lookup that found nothing', () => {
    const s = new Session();
    s.prompt();
    for (const cmd of ['pacman -Qs teams', 'find ~ -name "*teams*"', 'flatpak list | grep -i teams'])
      s.call('Bash', { command: cmd }, 'Permission for this tool use was denied. The tool use was rejected.', false);
    assert.equal(s.actions()[0], 'nudge');
  });
});

describe('what a shell command is', () => {
  it('waiting between actions is no poll: a restart with a pause in it, failing alike each time, is a retry', () => {
    const s = new Session();
    s.prompt();
    for (const kill of ['lsof -ti:3002 | xargs kill -9', 'killall -9 node', 'kill -9 615087'])
      s.bash(
        `${kill}; sleep 2 && pm2 restart web && curl -I https://example.com`,
        '[PM2] restarted\nHTTP/2 503 \nserver: nginx',
      );
    assert.equal(s.actions()[0], 'nudge');
  });

  it('a command that holds a secret is what it runs, not an edit of a file its placeholder seems to name', () => {
    const s = new Session();
    s.prompt();
    const seen = (command: string) => {
      s.bash(command, '{"items": []}');
      return s.state.agents.main!.window.at(-1)!.cls;
    };
    assert.equal(seen('curl -s "https://api.example.com/v1/items?key=abcdef1234567890" | jq .'), 'read');
    assert.equal(seen('curl -s https://api.example.com/v1/items?key=abcdef1234567890 | jq .'), 'read');
    assert.equal(seen('mysql -u root -pS3cretPassw0rd shop -e "select count(*) from orders"'), 'exec');
    assert.equal(s.state.agents.main!.window.at(-1)!.edits, 0);
  });
});
