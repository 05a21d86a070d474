import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// `stallguard install` and `uninstall` as a person runs them, in a scratch project with a scratch HOME.

const CLI = join(process.cwd(), 'dist', 'cli.js');
const HOOK = join(process.cwd(), 'dist', 'hook.cjs');

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

const FILES: Record<string, [string, string]> = {
  claude: ['.claude/settings.json', 'home/.claude/settings.json'],
  codex: ['.codex/hooks.json', 'home/.codex/hooks.json'],
  gemini: ['.gemini/settings.json', 'home/.gemini/settings.json'],
  cursor: ['.cursor/hooks.json', 'home/.cursor/hooks.json'],
  copilot: ['.github/hooks/stallguard.json', 'home/.copilot/hooks/stallguard.json'],
  qwen: ['.qwen/settings.json', 'home/.qwen/settings.json'],
};

describe('stallguard install / uninstall', { skip: existsSync(CLI) ? false : 'dist/cli.js is not built' }, () => {
  for (const [agent, [projectFile, userFile]] of Object.entries(FILES)) {
    it(`${agent}: installs the absolute hook command, says so, and uninstalls it`, () => {
      const dir = project();
      const first = cli(dir, 'install', '--agent', agent);
      assert.equal(first.status, 0, first.stderr);
      assert.match(first.stdout, /registered the hook/);
      const text = readFileSync(join(dir, projectFile), 'utf8');
      assert.ok(text.includes(`${process.execPath} ${HOOK} --agent ${agent} # stallguard`), text);
      if (agent === 'codex') assert.match(first.stdout, /\/hooks/);
      assert.match(cli(dir, 'install', '--agent', agent).stdout, /already registered/);
      assert.equal(readFileSync(join(dir, projectFile), 'utf8'), text);
      const gone = cli(dir, 'uninstall', '--agent', agent);
      assert.equal(gone.status, 0, gone.stderr);
      assert.equal(existsSync(join(dir, projectFile)), false);
      if (userFile) {
        assert.equal(cli(dir, 'install', '--agent', agent, '--scope', 'user').status, 0);
        assert.ok(existsSync(join(dir, userFile)), userFile);
      }
    });
  }

  it('codex --config-toml: appends its tables to config.toml beside the person\'s settings, and uninstall takes exactly them out', () => {
    const dir = project();
    mkdirSync(join(dir, '.codex'));
    const config = join(dir, '.codex', 'config.toml');
    const mine = '# my Codex settings\nmodel = "gpt-5"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "./notify.sh"\n';
    writeFileSync(config, mine);
    const first = cli(dir, 'install', '--agent', 'codex', '--config-toml');
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stdout, /registered the hook for Codex CLI \(config\.toml\) in \.codex\/config\.toml/);
    const text = readFileSync(config, 'utf8');
    assert.ok(text.startsWith(mine), text);
    assert.ok(text.includes(`command = "${process.execPath} ${HOOK} --agent codex # stallguard"`), text);
    assert.equal(existsSync(join(dir, '.codex', 'hooks.json')), false);
    assert.match(cli(dir, 'install', '--agent', 'codex', '--config-toml').stdout, /already registered/);
    assert.match(cli(dir, 'doctor').stdout, /Codex CLI \(config\.toml\) \(project, .*config\.toml\): installed/);
    const gone = cli(dir, 'uninstall', '--agent', 'codex');
    assert.equal(gone.status, 0, gone.stderr);
    assert.match(gone.stdout, /removed the hook for Codex CLI from \.codex\/config\.toml/);
    assert.equal(readFileSync(config, 'utf8'), mine);
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
    [['install', '--agent', 'cursor', '--scope', 'user', '--rules'], /keeps no instruction file at --scope user/],
    [['install', '--agent', 'aider'], /--agent must be one of claude, codex, gemini, cursor, copilot, qwen/],
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
