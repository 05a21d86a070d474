import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLAUDE } from '../src/install/claude.ts';
import { CODEX } from '../src/install/codex.ts';
import { GEMINI } from '../src/install/gemini.ts';
import type { GroupSpec } from '../src/install/hook-groups.ts';
import { sample } from './support/hook.ts';

// The Claude Code plugin, the Codex plugin and the Gemini CLI extension: their hook files register the
// same events as `stallguard install`, their versions follow package.json, npm ships them, and their
// commands, expanded the way each agent expands them, run the bundled hook.

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
const pkg = read('package.json');

function sameEvents(file: string, spec: GroupSpec): void {
  const hooks = read(file).hooks as Record<string, { matcher?: string; hooks: { command: string }[] }[]>;
  assert.deepEqual(
    Object.keys(hooks),
    spec.events.map((e) => e.name),
    file,
  );
  for (const e of spec.events) assert.equal(hooks[e.name]![0]!.matcher, e.matcher, `${file} ${e.name}`);
}

function commandOf(file: string): string {
  return (Object.values(read(file).hooks)[0] as { hooks: { command: string }[] }[])[0]!.hooks[0]!.command;
}

/** Runs a hook command through the shell, as the agents do, with one payload on stdin. */
function sh(command: string, env: NodeJS.ProcessEnv, payload: unknown): string {
  const full: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['NODE_EXTRA_CA_CERTS', 'STALLGUARD_HOME', 'STALLGUARD_MODE', 'CLAUDE_PLUGIN_DATA']) delete full[k];
  Object.assign(full, env);
  return spawnSync('sh', ['-c', command], {
    input: JSON.stringify(payload),
    env: full,
    encoding: 'utf8',
    timeout: 10_000,
  }).stdout.trim();
}

describe('packaging', () => {
  it("registers the same events as install, in each agent's plugin format", () => {
    sameEvents('hooks/hooks.json', CLAUDE);
    sameEvents('hooks/codex.json', CODEX);
    sameEvents('extensions/gemini/hooks/hooks.json', GEMINI);
    // Codex's loader accepts nothing but these two keys at the top of a hooks file
    for (const f of ['hooks/hooks.json', 'hooks/codex.json'])
      assert.deepEqual(Object.keys(read(f)).sort(), ['description', 'hooks']);
    assert.equal(read('.codex-plugin/plugin.json').hooks, './hooks/codex.json');
    // Claude Code loads hooks/hooks.json by itself and refuses a manifest that names it again
    assert.equal(read('.claude-plugin/plugin.json').hooks, undefined);
  });

  it('keeps every manifest at the package version, and ships them', () => {
    for (const f of [
      '.claude-plugin/plugin.json',
      '.codex-plugin/plugin.json',
      'extensions/gemini/gemini-extension.json',
    ])
      assert.equal(read(f).version, pkg.version, f);
    assert.equal(read('.claude-plugin/marketplace.json').plugins[0].version, pkg.version);
    // the plugin is the marketplace's own folder: a clone (built) or the installed package, never the npm registry
    assert.equal(read('.claude-plugin/marketplace.json').plugins[0].source, './');
    for (const f of ['.claude-plugin', 'hooks', '.codex-plugin', '.agents', 'extensions', 'dist'])
      assert.ok(pkg.files.includes(f), f);
  });

  const claudeLoop = () => {
    const pre = sample('claude-PreToolUse-Bash.json');
    const post = {
      ...sample('claude-PostToolUseFailure-Bash.json'),
      session_id: pre.session_id,
      prompt_id: pre.prompt_id,
    };
    return [pre, post, pre, post];
  };

  it('Claude Code plugin: runs the hook from CLAUDE_PLUGIN_ROOT and keeps state in CLAUDE_PLUGIN_DATA', {
    skip: !existsSync('dist/hook.cjs') && 'not built',
  }, () => {
    const data = mkdtempSync(join(tmpdir(), 'sg-plugin-data-'));
    const home = mkdtempSync(join(tmpdir(), 'sg-plugin-home-'));
    writeFileSync(join(data, 'config.json'), JSON.stringify({ mode: 'enforce', repeat: 2 }));
    const env = { CLAUDE_PLUGIN_ROOT: process.cwd(), CLAUDE_PLUGIN_DATA: data, HOME: home };
    const answers = claudeLoop().map((p) => sh(commandOf('hooks/hooks.json'), env, p));
    assert.match(answers[3]!, /additionalContext.*x2/);
    assert.equal(readdirSync(join(data, 'sessions')).filter((n) => n.endsWith('.jsonl')).length, 1);
    assert.equal(existsSync(join(home, '.stallguard')), false);
  });

  it('Codex plugin: runs the hook from PLUGIN_ROOT', { skip: !existsSync('dist/hook.cjs') && 'not built' }, () => {
    const data = mkdtempSync(join(tmpdir(), 'sg-plugin-data-'));
    writeFileSync(join(data, 'config.json'), JSON.stringify({ mode: 'enforce', repeat: 2 }));
    const env = { PLUGIN_ROOT: process.cwd(), CLAUDE_PLUGIN_DATA: data, PLUGIN_DATA: data };
    const post = sample('codex-PostToolUse-Bash.json');
    const answers = [post, post].map((p) => sh(commandOf('hooks/codex.json'), env, p));
    assert.match(answers[1]!, /additionalContext.*x2/);
  });

  // biome-ignore lint/suspicious/noTemplateCurlyInString: Gemini's own token, named as its hooks.json spells it
  it('Gemini extension: its own copy of the hook runs from ${extensionPath}', {
    skip: !existsSync('extensions/gemini/hook.cjs') && 'not built',
  }, () => {
    const home = mkdtempSync(join(tmpdir(), 'sg-ext-home-'));
    writeFileSync(join(home, 'config.json'), JSON.stringify({ mode: 'enforce', repeat: 2 }));
    // Gemini substitutes these tokens in the command text before it runs it
    const command = commandOf('extensions/gemini/hooks/hooks.json')
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Gemini's tokens, as its hooks.json spells them
      .replaceAll('${extensionPath}', join(process.cwd(), 'extensions', 'gemini'))
      // biome-ignore lint/suspicious/noTemplateCurlyInString: as above
      .replaceAll('${/}', '/');
    const post = sample('gemini-AfterTool-run_shell_command.json');
    const answers = [post, post].map((p) => sh(command, { STALLGUARD_HOME: home, HOME: home }, p));
    assert.match(answers[1]!, /additionalContext.*x2/);
  });
});
