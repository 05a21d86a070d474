import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, scratch } from './support/hook-process.ts';

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

function settings(project: string): any {
  return JSON.parse(readFileSync(join(project, '.claude', 'settings.json'), 'utf8').replace(/\/\/.*$/gm, ''));
}

describe('stallguard install (Claude Code)', () => {
  it('registers one absolute node command for every event it needs, in a new project file', () => {
    const { project, env } = scratch();
    const r = runCli(['install'], env, project);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /registered the hook for Claude Code in \.claude\/settings\.json/);
    assert.match(r.stdout, /Mode: shadow/);
    const hooks = settings(project).hooks;
    assert.deepEqual(Object.keys(hooks).sort(), ['PostToolBatch', 'PostToolUse', 'PostToolUseFailure', 'PreToolUse', 'Stop', 'SubagentStop', 'UserPromptSubmit']);
    const command: string = hooks.PreToolUse[0].hooks[0].command;
    assert.match(command, new RegExp(`^${process.execPath.replace(/[/.]/g, '\\$&')} /\\S+/dist/hook\\.cjs --agent claude # stallguard$`));
    assert.doesNotMatch(command, /npx/);
    assert.equal(hooks.PreToolUse[0].matcher, '*');
    assert.equal(hooks.PostToolBatch[0].matcher, undefined);
  });

  it('writes a command that runs: a payload through it exits 0', () => {
    const { project, env } = scratch();
    runCli(['install'], env, project);
    const command: string = settings(project).hooks.PostToolUse[0].hooks[0].command;
    const payload = JSON.stringify({ session_id: 's', cwd: project, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'a' } });
    const r = spawnSync('sh', ['-c', command], { input: payload, env: { ...process.env, ...env }, encoding: 'utf8' });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '');
  });

  it('is idempotent, keeps every other setting and comment, and uninstall restores the file exactly', () => {
    const { project, env } = scratch();
    mkdirSync(join(project, '.claude'));
    const file = join(project, '.claude', 'settings.json');
    writeFileSync(file, USER_SETTINGS);
    runCli(['install'], env, project);
    const once = readFileSync(file, 'utf8');
    assert.match(once, /\/\/ my team's settings/);
    assert.match(once, /\/\/ format on edit/);
    assert.equal(settings(project).hooks.PostToolUse.length, 2);
    assert.ok(settings(project).hooks.PostToolUse.some((g: any) => g.matcher === 'Edit' && g.hooks[0].command === 'prettier --write'));
    assert.equal(settings(project).model, 'opus');
    runCli(['install'], env, project);
    assert.equal(readFileSync(file, 'utf8'), once);
    const r = runCli(['uninstall'], env, project);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(file, 'utf8'), USER_SETTINGS);
  });

  it('removes a settings file it created, on uninstall', () => {
    const { project, env } = scratch();
    runCli(['install'], env, project);
    runCli(['uninstall'], env, project);
    assert.equal(existsSync(join(project, '.claude', 'settings.json')), false);
  });

  it('--dry-run prints the change and writes nothing', () => {
    const { project, env } = scratch();
    const r = runCli(['install', '--dry-run'], env, project);
    assert.equal(r.status, 0);
    assert.match(r.stdout, /--- \.claude\/settings\.json \(new file\)/);
    assert.match(r.stdout, /\+ .*"PreToolUse"/);
    assert.equal(existsSync(join(project, '.claude')), false);
  });

  it('--scope user writes the user settings file', () => {
    const { project, env } = scratch();
    runCli(['install', '--scope', 'user'], env, project);
    assert.ok(existsSync(join(env.HOME!, '.claude', 'settings.json')));
    assert.equal(existsSync(join(project, '.claude')), false);
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

  it('refuses a settings file that is not JSON, naming the problem, and leaves it alone', () => {
    const { project, env } = scratch();
    mkdirSync(join(project, '.claude'));
    writeFileSync(join(project, '.claude', 'settings.json'), '{ "hooks": [ }');
    const r = runCli(['install'], env, project);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /settings\.json is not valid JSON \(\w+ at line 1\)/);
    assert.doesNotMatch(r.stderr, /at \w+ \(/); // no stack trace
    assert.equal(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'), '{ "hooks": [ }');
  });

  it('names a bad option clearly', () => {
    const { project, env } = scratch();
    const r = runCli(['install', '--scope', 'galaxy'], env, project);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--scope must be one of project, user/);
  });
});
