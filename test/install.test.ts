import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { runCli, scratch } from './support/hook-process.ts';
import { defaultPort } from '../src/serve/address.ts';
import { HOOK_ENV } from '../src/core/hook-env.ts';

const USER_SETTINGS = `{
  // my team's settings
  "permissions": { "allow": ["Bash(npm test)"] },
  "hooks": {
    "PostToolUse": [
      { "matcher": "Edit", "hooks": [{ "type": "command", "command": "prettier --write" }] } // format on edit
    ]
  },
  "model": "opus"
}
`;

/** A scratch project that is a git repository, as most are. */
function repo(): ReturnType<typeof scratch> {
  const s = scratch();
  spawnSync('git', ['init', '-q'], { cwd: s.project });
  return s;
}

const LOCAL = ['.claude', 'settings.local.json'];

/** The settings as Claude Code reads them: JSON with comments (URLs hold "//", so comments are parsed, not stripped). */
function jsonc(project: string, file = LOCAL): any {
  return parseJsonc(readFileSync(join(project, ...file), 'utf8'));
}

function settings(project: string, file = LOCAL): any {
  return JSON.parse(readFileSync(join(project, ...file), 'utf8').replace(/\/\/.*$/gm, ''));
}

function git(project: string, ...args: string[]): string {
  return spawnSync('git', args, { cwd: project, encoding: 'utf8' }).stdout;
}

describe('stallguard install (Claude Code)', () => {
  it('registers one absolute node command for every event it needs, in the personal settings, kept out of git', () => {
    const { project, env } = repo();
    const exclude = readFileSync(join(project, '.git', 'info', 'exclude'), 'utf8');
    const r = runCli(['install'], env, project);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /registered the hook for Claude Code in \.claude\/settings\.local\.json/);
    assert.match(r.stdout, /kept out of git by a line in \.git\/info\/exclude/);
    assert.match(r.stdout, /Mode: shadow/);
    const hooks = jsonc(project).hooks;
    assert.deepEqual(Object.keys(hooks).sort(), [
      'PostToolBatch',
      'PostToolUseFailure',
      'PreToolUse',
      'Stop',
      'SubagentStop',
      'UserPromptSubmit',
    ]);
    // by default through the daemon: its http hook first, then the command that stands in while it is down
    assert.equal(hooks.PreToolUse[0].hooks[0].type, 'http');
    const command: string = hooks.PreToolUse[0].hooks[1].command;
    // on Node 20 the command clears NODE_EXTRA_CA_CERTS, which would triple node's start-up (src/install/hook-command.ts)
    const clears =
      Number(process.versions.node.split('.')[0]) < 22
        ? 'STALLGUARD_CA_CERTS="$NODE_EXTRA_CA_CERTS" NODE_EXTRA_CA_CERTS= '
        : '';
    assert.match(
      command,
      new RegExp(
        ` \\|\\| ${clears.replace(/[$.*+?^(){}|[\]\\]/g, '\\$&')}${process.execPath.replace(/[/.]/g, '\\$&')} /\\S+/dist/hook\\.cjs --agent claude --serve-port ${defaultPort()} # stallguard$`,
      ),
    );
    assert.doesNotMatch(command, /npx/);
    assert.equal(hooks.PreToolUse[0].matcher, '*');
    assert.equal(hooks.PostToolBatch[0].matcher, undefined);
    // nothing for git to commit: the one file is ignored, through the clone's own exclude list
    assert.equal(existsSync(join(project, '.claude', 'settings.json')), false);
    assert.equal(git(project, 'status', '--porcelain', '--untracked-files=all'), '');
    assert.equal(readFileSync(join(project, '.git', 'info', 'exclude'), 'utf8').slice(0, exclude.length), exclude);
  });

  it('registers PostToolUse as well for a Claude Code on PATH older than the batch ends that list results', () => {
    for (const [version, post] of [
      ['2.1.120 (Claude Code)', true],
      ['2.1.145 (Claude Code)', false],
      ['2.2.3 (Claude Code)', false],
      ['not a version', false],
    ] as const) {
      const { project, env } = scratch();
      const bin = join(project, '..', 'bin');
      mkdirSync(bin, { recursive: true });
      writeFileSync(join(bin, 'claude'), `#!/bin/sh\necho '${version}'\n`, { mode: 0o755 });
      const withClaude = { ...env, PATH: `${bin}:${process.env.PATH}` };
      assert.equal(runCli(['install'], withClaude, project).status, 0);
      assert.equal('PostToolUse' in jsonc(project).hooks, post, version);
      // doctor reads the same version: no advice to drop what that Claude Code needs, nor to keep what it does not
      const d = runCli(['doctor', '--json'], withClaude, project);
      assert.doesNotMatch(d.stdout, /also registered on PostToolUse|the calls that succeed go unobserved/, version);
    }
  });

  it('writes a command that runs: a payload through it exits 0', () => {
    const { project, env } = scratch();
    runCli(['install', '--no-daemon'], env, project);
    const command: string = settings(project).hooks.PostToolBatch[0].hooks[0].command;
    const payload = JSON.stringify({
      session_id: 's',
      cwd: project,
      hook_event_name: 'PostToolBatch',
      tool_calls: [{ tool_name: 'Bash', tool_input: { command: 'ls' }, tool_use_id: 't1', tool_response: 'a' }],
    });
    const r = spawnSync('sh', ['-c', command], { input: payload, env: { ...process.env, ...env }, encoding: 'utf8' });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '');
  });

  it('is idempotent, keeps every other setting and comment, and uninstall restores the file exactly', () => {
    const { project, env } = scratch();
    mkdirSync(join(project, '.claude'));
    const file = join(project, ...LOCAL);
    writeFileSync(file, USER_SETTINGS);
    runCli(['install'], env, project);
    const once = readFileSync(file, 'utf8');
    assert.match(once, /\/\/ my team's settings/);
    assert.match(once, /\/\/ format on edit/);
    // a call's success reaches stallguard through PostToolBatch: the person's own PostToolUse group stays alone
    assert.equal(jsonc(project).hooks.PostToolUse.length, 1);
    assert.equal(jsonc(project).hooks.PostToolBatch.length, 1);
    assert.ok(
      jsonc(project).hooks.PostToolUse.some(
        (g: any) => g.matcher === 'Edit' && g.hooks[0].command === 'prettier --write',
      ),
    );
    assert.equal(jsonc(project).model, 'opus');
    runCli(['install'], env, project);
    assert.equal(readFileSync(file, 'utf8'), once);
    const r = runCli(['uninstall'], env, project);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(file, 'utf8'), USER_SETTINGS);
  });

  for (const [what, text] of <[string, string][]>[
    ['only {}', '{}'],
    ['{"hooks":{}} and a newline', '{"hooks":{}}\n'],
    ['an empty line', '\n'],
    ['settings without a newline at the end', '{ "model": "opus" }'],
    ['an empty hooks list of its own', '{\n  "hooks": {\n    "PreToolUse": []\n  }\n}\n'],
  ]) {
    it(`uninstall gives back byte for byte a file that held ${what}, after installs with and without the daemon`, () => {
      const { project, env } = repo();
      mkdirSync(join(project, '.claude'));
      const file = join(project, ...LOCAL);
      writeFileSync(file, text);
      runCli(['install'], env, project);
      runCli(['install', '--no-daemon'], env, project);
      runCli(['install', '--port', '28999'], env, project);
      assert.equal(runCli(['uninstall'], env, project).status, 0);
      assert.equal(readFileSync(file, 'utf8'), text);
    });
  }

  it('removes a settings file it created, and the .claude folder it created; a folder with anything else in it stays', () => {
    const { project, env } = repo();
    const exclude = readFileSync(join(project, '.git', 'info', 'exclude'), 'utf8');
    runCli(['install'], env, project);
    const r = runCli(['uninstall'], env, project);
    assert.match(
      r.stdout,
      /removed \.claude\/settings\.local\.json, which install had created, and the empty folder \.claude\./,
    );
    assert.deepEqual(readdirSync(project), ['.git']);
    assert.equal(readFileSync(join(project, '.git', 'info', 'exclude'), 'utf8'), exclude);
    mkdirSync(join(project, '.claude', 'agents'), { recursive: true });
    runCli(['install'], env, project);
    runCli(['uninstall'], env, project);
    assert.deepEqual(readdirSync(join(project, '.claude')), ['agents']);
  });

  it('after the file was edited since, uninstall takes out its own part and keeps the edit', () => {
    const { project, env } = scratch();
    mkdirSync(join(project, '.claude'));
    const file = join(project, ...LOCAL);
    writeFileSync(file, '{\n  "model": "opus"\n}\n');
    runCli(['install'], env, project);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"model": "opus"', '"model": "sonnet"'));
    runCli(['uninstall'], env, project);
    assert.equal(readFileSync(file, 'utf8'), '{\n  "model": "sonnet"\n}\n');
  });

  it('--dry-run prints the change and writes nothing', () => {
    const { project, env } = repo();
    const r = runCli(['install', '--dry-run'], env, project);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /--- \.claude\/settings\.local\.json \(new file\)/);
    assert.match(r.stdout, /\+ .*"PreToolUse"/);
    assert.match(r.stdout, /\.git\/info\/exclude\n(.*\n)*\+ \/\.claude\/settings\.local\.json/);
    assert.equal(existsSync(join(project, '.claude')), false);
    assert.equal(existsSync(env.STALLGUARD_HOME!), false);
  });

  it('--scope user writes the user settings file', () => {
    const { project, env } = scratch();
    runCli(['install', '--scope', 'user'], env, project);
    assert.ok(existsSync(join(env.HOME!, '.claude', 'settings.json')));
    assert.equal(existsSync(join(project, '.claude')), false);
  });

  it('--scope project writes the committed settings with a command that names no path of this machine', () => {
    const { project, env } = repo();
    const r = runCli(['install', '--scope', 'project'], env, project);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stdout,
      /commit \.claude\/settings\.json\. Its command runs `stallguard` from PATH, so each teammate needs stallguard installed/,
    );
    const text = readFileSync(join(project, '.claude', 'settings.json'), 'utf8');
    for (const path of [process.execPath, process.cwd(), env.HOME!]) assert.equal(text.includes(path), false, path);
    assert.match(
      settings(project, ['.claude', 'settings.json']).hooks.PreToolUse[0].hooks[0].command,
      /^command -v stallguard >\/dev\/null 2>&1 \|\| exit 0; .*stallguard hook --agent claude # stallguard$/,
    );
    assert.match(git(project, 'status', '--porcelain', '--untracked-files=all'), /^\?\? \.claude\/settings\.json$/m);
    // the daemon's port is this user's: not for a committed file
    assert.doesNotMatch(text, /"http"|serve-port/);
    const daemon = runCli(['install', '--scope', 'project', '--daemon'], env, project);
    assert.equal(daemon.status, 2);
    assert.match(daemon.stderr, /--daemon: the daemon's port is this user's, not the team's/);
  });

  it('says when a personal and a shared install would both run, and the shared one leaves the personal one out of git', () => {
    const { project, env } = repo();
    runCli(['install'], env, project);
    const r = runCli(['install', '--scope', 'project'], env, project);
    assert.match(
      r.stdout,
      /also registered for Claude Code in \.claude\/settings\.local\.json: both run, and every call would be counted twice\. Remove one: stallguard uninstall --scope local/,
    );
    assert.match(git(project, 'status', '--porcelain', '--untracked-files=all'), /^\?\? \.claude\/settings\.json\n$/);
  });

  it('personal installs in two folders of one repository each take their own line out of .git/info/exclude', () => {
    const { project, env } = repo();
    const exclude = join(project, '.git', 'info', 'exclude');
    const original = readFileSync(exclude, 'utf8');
    for (const sub of ['web', 'api']) mkdirSync(join(project, sub));
    runCli(['install'], env, join(project, 'web'));
    runCli(['install'], env, join(project, 'api'));
    assert.equal(git(project, 'status', '--porcelain', '--untracked-files=all'), '');
    runCli(['uninstall'], env, join(project, 'web'));
    assert.match(readFileSync(exclude, 'utf8'), /^\/api\/\.claude\/settings\.local\.json$/m);
    assert.doesNotMatch(readFileSync(exclude, 'utf8'), /\/web\//);
    runCli(['uninstall'], env, join(project, 'api'));
    assert.equal(readFileSync(exclude, 'utf8'), original);
  });

  it('--rules adds the rule to CLAUDE.md once, and uninstall takes out only that', () => {
    const { project, env } = scratch();
    writeFileSync(join(project, 'CLAUDE.md'), '# Project\n\nUse pnpm.\n');
    runCli(['install', '--rules'], env, project);
    runCli(['install', '--rules'], env, project);
    const md = readFileSync(join(project, 'CLAUDE.md'), 'utf8');
    assert.equal(md.match(/stallguard:rules -->/g)?.length, 2);
    assert.match(md, /more than three failed attempts/);
    assert.match(md, /^# Project\n\nUse pnpm\.\n/);
    runCli(['uninstall'], env, project);
    assert.equal(readFileSync(join(project, 'CLAUDE.md'), 'utf8'), '# Project\n\nUse pnpm.\n');
  });

  it('--rules into an empty CLAUDE.md, taken out again, leaves it there and empty', () => {
    const { project, env } = scratch();
    writeFileSync(join(project, 'CLAUDE.md'), '');
    runCli(['install', '--rules'], env, project);
    runCli(['uninstall'], env, project);
    assert.equal(readFileSync(join(project, 'CLAUDE.md'), 'utf8'), '');
  });

  it('refuses a settings file that is not JSON, naming the problem, and leaves it alone', () => {
    const { project, env } = scratch();
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, ...LOCAL), '{ "hooks": [ }');
    const r = runCli(['install'], env, project);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /settings\.local\.json is not valid JSON \(\w+ at line 1\)/);
    assert.doesNotMatch(r.stderr, /at \w+ \(/); // no stack trace
    assert.equal(readFileSync(join(project, ...LOCAL), 'utf8'), '{ "hooks": [ }');
  });

  it('names a bad option clearly', () => {
    const { project, env } = scratch();
    const r = runCli(['install', '--scope', 'galaxy'], env, project);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--scope must be one of local, project, user/);
  });

  it('the daemon: its http hook on every event, beside a command that stands aside while it is up where a call starts', () => {
    const { project, env } = scratch();
    mkdirSync(join(project, '.claude'));
    const file = join(project, ...LOCAL);
    writeFileSync(file, USER_SETTINGS);
    const r = runCli(['install', '--daemon', '--port', '28999'], env, project);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /http:\/\/127\.0\.0\.1:28999\/stallguard\/claude/);
    const ourGroups = Object.entries(jsonc(project).hooks as Record<string, any[]>).map(([event, groups]) => [
      event,
      groups.find((g: any) => g.hooks.some((h: any) => h.type === 'http')),
    ]);
    assert.equal(ourGroups.filter(([, g]) => g).length, 6);
    for (const [event, ours] of ourGroups) {
      if (!ours) continue;
      assert.deepEqual(ours.hooks[0], {
        type: 'http',
        url: 'http://127.0.0.1:28999/stallguard/claude',
        timeout: 3,
        // the hook environment's variables, interpolated by Claude Code (src/serve/hook-env.ts)
        headers: Object.fromEntries(HOOK_ENV.map((n) => [`X-Stallguard-Env-${n}`, `$${n}`])),
        allowedEnvVars: [...HOOK_ENV],
      });
      if (/^Post/.test(event)) {
        assert.equal(ours.hooks.length, 1, `${event}: the http hook alone`);
        continue;
      }
      assert.match(
        ours.hooks[1].command,
        /^read p _ 2>\/dev\/null < "\$\{STALLGUARD_HOME:-\$HOME\/\.stallguard\}\/serve\.pid" && kill -0 "\$p" 2>\/dev\/null \|\| .*\/dist\/hook\.cjs --agent claude --serve-port 28999 # stallguard$/,
      );
    }
    assert.equal(
      jsonc(project).hooks.PreToolUse.filter((g: any) => g.hooks.some((h: any) => h.type === 'http')).length,
      1,
    );
    const daemon = readFileSync(file, 'utf8');
    runCli(['install', '--daemon', '--port', '28999'], env, project);
    assert.equal(readFileSync(file, 'utf8'), daemon, 'a second install changes nothing');
    // back to the command hook alone, then nothing of ours at all
    runCli(['install', '--no-daemon'], env, project);
    assert.doesNotMatch(readFileSync(file, 'utf8'), /"http"|serve-port/);
    assert.equal(jsonc(project).hooks.PreToolUse[0].hooks.length, 1);
    runCli(['install', '--daemon', '--port', '28999'], env, project);
    runCli(['uninstall'], env, project);
    assert.equal(readFileSync(file, 'utf8'), USER_SETTINGS);
  });

  it("leaves the daemon out where another program holds its port: Claude Code's http hook would post to it", async () => {
    const { project, env } = scratch();
    const taken = createServer().listen(0, '127.0.0.1');
    await new Promise((r) => taken.once('listening', r));
    const port = String((taken.address() as { port: number }).port);
    try {
      const r = runCli(['install', '--port', port], env, project);
      assert.equal(r.status, 0, r.stderr);
      assert.match(
        r.stdout,
        new RegExp(`Daemon: none, since port ${port} on 127\\.0\\.0\\.1 is taken by another program`),
      );
      assert.doesNotMatch(readFileSync(join(project, ...LOCAL), 'utf8'), /"http"|serve-port/);
      const asked = runCli(['install', '--daemon', '--port', port], env, project);
      assert.equal(asked.status, 2);
      assert.match(asked.stderr, /which would receive every hook payload; pick a free port with --port N/);
      // the agents with command hooks alone never send a payload to a port their daemon does not hold
      const codex = runCli(['install', '--agent', 'codex', '--port', port], env, project);
      assert.match(codex.stdout, /so the daemon cannot start there and every call starts node/);
      assert.match(readFileSync(join(project, '.codex', 'hooks.json'), 'utf8'), /hook-client\.sh codex/);
    } finally {
      taken.close();
    }
  });

  it('--port with --no-daemon, or a bad port, is a usage error', () => {
    const { project, env } = scratch();
    assert.match(
      runCli(['install', '--no-daemon', '--port', '28999'], env, project).stderr,
      /--port is the daemon's, and this install has none/,
    );
    assert.match(runCli(['install', '--daemon', '--no-daemon'], env, project).stderr, /one without the other/);
    const bad = runCli(['install', '--daemon', '--port', '80'], env, project);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--port must be a whole number from 1024 to 65535 \(got "80"\)/);
  });
});
