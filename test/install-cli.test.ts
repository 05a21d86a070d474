import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPort } from '../src/serve/address.ts';

// `stallguard install` and `uninstall` as a person runs them, in a scratch project with a scratch HOME.

const CLI = join(process.cwd(), 'dist', 'cli.js');
const HOOK = join(process.cwd(), 'dist', 'hook.cjs');
const CLIENT = join(process.cwd(), 'dist', 'hook-client.sh');

function cli(cwd: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: join(cwd, 'home'), STALLGUARD_HOME: join(cwd, 'sg') };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.STALLGUARD_MODE;
  delete env.CODEX_HOME;
  delete env.CLAUDE_CONFIG_DIR;
  delete env.COPILOT_HOME;
  delete env.QWEN_HOME;
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, env, encoding: 'utf8', timeout: 10_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-proj-'));
  mkdirSync(join(dir, 'home'));
  return dir;
}

/** Per agent: the personal project file, the committed one, the user one. */
const FILES: Record<string, [string, string, string]> = {
  claude: ['.claude/settings.local.json', '.claude/settings.json', 'home/.claude/settings.json'],
  codex: ['.codex/hooks.json', '.codex/hooks.json', 'home/.codex/hooks.json'],
  gemini: ['.gemini/settings.json', '.gemini/settings.json', 'home/.gemini/settings.json'],
  cursor: ['.cursor/hooks.json', '.cursor/hooks.json', 'home/.cursor/hooks.json'],
  copilot: ['.github/hooks/stallguard.json', '.github/hooks/stallguard.json', 'home/.copilot/hooks/stallguard.json'],
  qwen: ['.qwen/settings.json', '.qwen/settings.json', 'home/.qwen/settings.json'],
};

function git(cwd: string, ...args: string[]) {
  return spawnSync('git', args, { cwd, encoding: 'utf8' });
}

/** A shell call about to run, in each agent's own payload. */
const PRE_TOOL: Record<string, (cwd: string) => Record<string, unknown>> = {
  claude: (cwd) => ({
    session_id: 's',
    cwd,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    tool_use_id: 't',
  }),
  codex: (cwd) => ({
    session_id: 's',
    turn_id: 't1',
    cwd,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5',
    tool_name: 'Bash',
    tool_input: { command: 'ls' },
    tool_use_id: 't',
  }),
  gemini: (cwd) => ({
    session_id: 's',
    cwd,
    hook_event_name: 'BeforeTool',
    timestamp: '2026-12-01T10:00:00Z',
    tool_name: 'run_shell_command',
    tool_input: { command: 'ls' },
  }),
  cursor: (cwd) => ({
    conversation_id: 's',
    generation_id: 'g',
    cursor_version: '1.7',
    workspace_roots: [cwd],
    hook_event_name: 'preToolUse',
    tool_name: 'Shell',
    tool_input: { command: 'ls' },
  }),
  copilot: (cwd) => ({
    sessionId: 's',
    timestamp: 1764583200000,
    cwd,
    toolName: 'bash',
    toolArgs: JSON.stringify({ command: 'ls' }),
  }),
  qwen: (cwd) => ({
    session_id: 's',
    cwd,
    hook_event_name: 'PreToolUse',
    prompt_id: 's########0',
    tool_name: 'run_shell_command',
    tool_input: { command: 'ls' },
    tool_use_id: 't',
  }),
};

/** Runs an installed command through sh as the agents do, with `bin` (or nothing) added to PATH for `stallguard`. */
function runCommand(agent: string, command: string, cwd: string, bin?: string) {
  const env: NodeJS.ProcessEnv = {
    PATH: [bin, '/usr/bin', '/bin'].filter(Boolean).join(':'),
    HOME: join(cwd, 'home'),
    STALLGUARD_HOME: join(cwd, 'sg'),
  };
  const payload = JSON.stringify(PRE_TOOL[agent]!(cwd));
  return spawnSync('sh', ['-c', command], { cwd, env, input: payload, encoding: 'utf8', timeout: 10_000 });
}

/** A folder with a `stallguard` in it, as a global npm install leaves one on PATH. */
function binDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-bin-'));
  symlinkSync(CLI, join(dir, 'stallguard'));
  symlinkSync(process.execPath, join(dir, 'node'));
  return dir;
}

const commandIn = (text: string) =>
  /"(?:command|bash)": "((?:[^"\\]|\\.)*# stallguard)"/.exec(text)![1]!.replace(/\\"/g, '"');

describe('stallguard install / uninstall', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built' }, () => {
  for (const [agent, [localFile, projectFile, userFile]] of Object.entries(FILES)) {
    it(`${agent}: installs the absolute hook command for this person, out of git, says so, and uninstalls it`, () => {
      const dir = project();
      git(dir, 'init', '-q');
      const first = cli(dir, 'install', '--agent', agent);
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /registered the hook/);
      const text = readFileSync(join(dir, localFile), 'utf8');
      const command = commandIn(text);
      // by default through the daemon, where the agent has a way to it: Claude Code's http hook beside the
      // command, the others' bash first stage before node (src/hook/client.sh); Cursor runs node alone
      const daemon = agent !== 'cursor';
      assert.ok(
        command.endsWith(
          `${process.execPath} ${HOOK} --agent ${agent}${daemon ? ` --serve-port ${defaultPort()}` : ''} # stallguard`,
        ),
        command,
      );
      if (agent === 'claude') assert.match(text, /"type": "http"/);
      else if (daemon)
        assert.ok(command.startsWith(`[ -f ${CLIENT} ] && . ${CLIENT} ${agent} 2>/dev/null || `), command);
      assert.match(first.stdout, daemon ? /Daemon: .*opt out: --no-daemon/ : /^(?![\s\S]*Daemon:)/);
      const alone = cli(dir, 'install', '--agent', agent, '--no-daemon');
      assert.equal(alone.status, 0, alone.stderr);
      assert.ok(
        commandIn(readFileSync(join(dir, localFile), 'utf8')).endsWith(`${HOOK} --agent ${agent} # stallguard`),
      );
      assert.doesNotMatch(readFileSync(join(dir, localFile), 'utf8'), /"http"|serve-port|hook-client/);
      cli(dir, 'install', '--agent', agent);
      assert.equal(
        git(dir, 'status', '--porcelain', '--untracked-files=all', '--', localFile).stdout,
        '',
        `${localFile} is not for git`,
      );
      if (agent === 'codex') assert.match(first.stdout, /\/hooks/);
      assert.match(cli(dir, 'install', '--agent', agent).stdout, /already registered/);
      assert.equal(readFileSync(join(dir, localFile), 'utf8'), text);
      const gone = cli(dir, 'uninstall', '--agent', agent);
      assert.equal(gone.status, 0, gone.stderr);
      assert.equal(existsSync(join(dir, localFile)), false);
      assert.equal(existsSync(join(dir, localFile.split('/')[0]!)), false, 'the folder install created');
      if (userFile) {
        assert.equal(cli(dir, 'install', '--agent', agent, '--scope', 'user').status, 0);
        assert.ok(existsSync(join(dir, userFile)), userFile);
      }
    });

    it(`${agent}: a shared install names no path of this machine, runs stallguard from PATH, and steps aside where it is missing`, () => {
      const dir = project();
      git(dir, 'init', '-q');
      const r = cli(dir, 'install', '--agent', agent, '--scope', 'project');
      assert.equal(r.status, 0, r.stderr);
      assert.match(
        r.stdout,
        new RegExp(`commit ${projectFile.replace(/[./]/g, '\\$&')}\\. Its command runs \`stallguard\` from PATH`),
      );
      const text = readFileSync(join(dir, projectFile), 'utf8');
      for (const path of [process.execPath, HOOK, dir]) assert.equal(text.includes(path), false, `${path} in ${text}`);
      assert.match(
        git(dir, 'status', '--porcelain', '--untracked-files=all').stdout,
        new RegExp(`^\\?\\? ${projectFile.replace(/[./]/g, '\\$&')}$`, 'm'),
        'for git to commit',
      );
      const command = commandIn(text);
      const present = runCommand(agent, command, dir, binDir());
      assert.equal(present.status, 0, present.stderr);
      assert.ok(existsSync(join(dir, 'sg', 'sessions')), 'the hook ran and recorded the call');
      const missing = runCommand(agent, command, dir);
      assert.deepEqual(
        [missing.status, missing.stdout, missing.stderr],
        [0, '', ''],
        'no stallguard on PATH: nothing at all',
      );
    });
  }

  it("codex --config-toml: appends its tables to config.toml beside the person's settings, and uninstall takes exactly them out", () => {
    const dir = project();
    mkdirSync(join(dir, '.codex'));
    const config = join(dir, '.codex', 'config.toml');
    const mine =
      '# my Codex settings\nmodel = "gpt-5"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "./notify.sh"\n';
    writeFileSync(config, mine);
    const first = cli(dir, 'install', '--agent', 'codex', '--config-toml');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /registered the hook for Codex CLI \(config\.toml\) in \.codex\/config\.toml/);
    const text = readFileSync(config, 'utf8');
    assert.ok(text.startsWith(mine), text);
    assert.ok(
      text.includes(`${process.execPath} ${HOOK} --agent codex --serve-port ${defaultPort()} # stallguard"`),
      text,
    );
    assert.equal(existsSync(join(dir, '.codex', 'hooks.json')), false);
    assert.match(cli(dir, 'install', '--agent', 'codex', '--config-toml').stdout, /already registered/);
    assert.match(cli(dir, 'doctor').stdout, /Codex CLI \(config\.toml\) \(local, .*config\.toml\): installed/);
    const gone = cli(dir, 'uninstall', '--agent', 'codex');
    assert.equal(gone.status, 0, gone.stderr);
    assert.match(gone.stdout, /took stallguard out of \.codex\/config\.toml/);
    assert.equal(readFileSync(config, 'utf8'), mine);
    assert.equal(existsSync(join(dir, '.codex', 'hooks.json')), false);
  });

  for (const [agent, file, bundle] of [
    ['opencode', '.opencode/plugins/stallguard.js', 'opencode-plugin.js'],
    ['pi', '.pi/extensions/stallguard.js', 'pi-extension.js'],
  ] as const) {
    it(`${agent}: the plugin file loads this machine's bundle, stays out of git, and uninstall takes it and its folders away`, () => {
      const dir = project();
      git(dir, 'init', '-q');
      const r = cli(dir, 'install', '--agent', agent);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /registered the plugin/);
      assert.match(
        readFileSync(join(dir, file), 'utf8'),
        new RegExp(`from ${JSON.stringify(join(process.cwd(), 'dist', bundle)).replace(/[./]/g, '\\$&')};`),
      );
      assert.equal(
        git(dir, 'status', '--porcelain', '--untracked-files=all', '--', file).stdout,
        '',
        `${file} is not for git`,
      );
      assert.match(cli(dir, 'doctor').stdout, new RegExp(`${agent} \\(local, .*\\): installed \\(plugin `));
      assert.equal(cli(dir, 'uninstall', '--agent', agent).status, 0);
      assert.equal(existsSync(join(dir, file.split('/')[0]!)), false, 'the folders install created');
      assert.equal(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8').includes(file), false);
    });
  }

  it('a personal install of a file git tracks is refused: the shared one is the way', () => {
    const dir = project();
    git(dir, 'init', '-q');
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini', 'settings.json'), '{ "model": { "name": "gemini-3" } }\n');
    git(dir, 'add', '.gemini/settings.json');
    const r = cli(dir, 'install', '--agent', 'gemini');
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^stallguard install: \.gemini\/settings\.json is committed in git, so a personal install would put this machine's paths in it; install for the whole team with --scope project, or for yourself in every project with --scope user\n$/,
    );
    assert.equal(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8'), '{ "model": { "name": "gemini-3" } }\n');
  });

  it('a shared install after a personal one of the same file takes its line out of .git/info/exclude', () => {
    const dir = project();
    git(dir, 'init', '-q');
    const exclude = readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8');
    cli(dir, 'install', '--agent', 'codex');
    assert.notEqual(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8'), exclude);
    cli(dir, 'install', '--agent', 'codex', '--scope', 'project');
    assert.equal(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8'), exclude);
    assert.match(git(dir, 'status', '--porcelain', '--untracked-files=all').stdout, /^\?\? \.codex\/hooks\.json$/m);
  });

  // the personal install of every agent and form adds its lines to .git/info/exclude; uninstall gives the
  // file back byte for byte, git's own and one a person wrote without a last newline alike
  const FORMS: [string, string[]][] = [
    ...Object.keys(FILES).map((agent): [string, string[]] => [agent, ['--agent', agent]]),
    ['codex --config-toml', ['--agent', 'codex', '--config-toml']],
    ['opencode', ['--agent', 'opencode']],
    ['pi', ['--agent', 'pi']],
  ];
  for (const [name, args] of FORMS) {
    it(`${name}: uninstall gives .git/info/exclude back exactly`, () => {
      const dir = project();
      git(dir, 'init', '-q');
      const file = join(dir, '.git', 'info', 'exclude');
      for (const before of [readFileSync(file, 'utf8'), '# mine\n*.log\nbuild/']) {
        writeFileSync(file, before);
        const r = cli(dir, 'install', ...args);
        assert.equal(r.status, 0, r.stderr);
        assert.notEqual(readFileSync(file, 'utf8'), before, 'install keeps the file out of git');
        assert.equal(cli(dir, 'uninstall', ...args.slice(0, 2)).status, 0);
        assert.equal(readFileSync(file, 'utf8'), before);
      }
    });
  }

  it("Codex's two forms, both installed: uninstall takes both lines out of .git/info/exclude", () => {
    const dir = project();
    git(dir, 'init', '-q');
    const file = join(dir, '.git', 'info', 'exclude');
    const before = readFileSync(file, 'utf8');
    assert.equal(cli(dir, 'install', '--agent', 'codex').status, 0);
    assert.equal(cli(dir, 'install', '--agent', 'codex', '--config-toml').status, 0);
    assert.equal(readFileSync(file, 'utf8').split('\n').length, before.split('\n').length + 4);
    assert.equal(cli(dir, 'uninstall', '--agent', 'codex').status, 0);
    assert.equal(readFileSync(file, 'utf8'), before);
  });

  it('keeps a settings file it cannot read as it was, and says which file', () => {
    const dir = project();
    mkdirSync(join(dir, '.gemini'));
    writeFileSync(join(dir, '.gemini', 'settings.json'), '{ "hooks": ');
    const r = cli(dir, 'install', '--agent', 'gemini');
    assert.equal(r.status, 1);
    assert.match(r.stderr, /settings\.json is not valid JSON/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    assert.equal(readFileSync(join(dir, '.gemini', 'settings.json'), 'utf8'), '{ "hooks": ');
  });

  const bad: [string[], RegExp][] = [
    [['install', '--agent', 'gemini', '--config-toml'], /--config-toml is for Codex only/],
    [
      ['install', '--agent', 'opencode', '--scope', 'project'],
      /opencode loads stallguard from a file that names this machine's copy of it, so it installs for you alone/,
    ],
    [['install', '--agent', 'cursor', '--scope', 'user', '--rules'], /keeps no instruction file at --scope user/],
    [
      ['install', '--agent', 'aider'],
      /--agent must be one of claude, codex, gemini, cursor, copilot, qwen, opencode, pi/,
    ],
  ];
  for (const [args, message] of bad) {
    it(`refuses ${args.slice(1).join(' ')} in one line, writing nothing`, () => {
      const dir = project();
      const r = cli(dir, ...args);
      assert.equal(r.status, 2);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.equal(existsSync(join(dir, '.cursor')) || existsSync(join(dir, '.github')), false);
    });
  }
});
