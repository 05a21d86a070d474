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
  copilot: ['.github/hooks/stallguard.json', ''],
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
    [['install', '--agent', 'copilot', '--scope', 'user'], /Copilot CLI reads hooks only at --scope project/],
    [['install', '--agent', 'cursor', '--scope', 'user', '--rules'], /keeps no instruction file at --scope user/],
    [['install', '--agent', 'aider'], /--agent must be one of claude, codex, gemini, cursor, copilot/],
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
