import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { holdsStallguard, tamperOf, withoutComments } from './entries.ts';

// What of a settings file is stallguard's: its marked handlers, the settings named after it, and the
// switches that turn every hook off. Everything else is the person's.

const ours = {
  type: 'command',
  command: '/usr/bin/node /opt/sg/dist/hook.cjs --agent claude # stallguard',
  timeout: 10,
};
const settings = (extra: Record<string, unknown> = {}, handler: Record<string, unknown> = ours) =>
  JSON.stringify(
    {
      model: 'sonnet',
      ...extra,
      hooks: {
        PreToolUse: [{ matcher: '*', hooks: [handler] }],
        SessionStart: [{ hooks: [{ type: 'command', command: 'echo hi' }] }],
      },
    },
    null,
    2,
  );

describe('stallguard entries in a JSON settings file', () => {
  it("leaves the person's settings and hooks to them", () => {
    assert.equal(
      tamperOf(settings(), settings({ model: 'opus', env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:4000' } }), 'json'),
      undefined,
    );
    assert.equal(tamperOf(settings(), settings().replace('echo hi', 'echo hello'), 'json'), undefined);
    assert.equal(
      tamperOf(settings(), JSON.stringify(JSON.parse(settings())), 'json'),
      undefined,
      'a new layout is no change',
    );
    assert.equal(tamperOf('{"model":"a"}', '{}', 'json'), undefined, 'a file without stallguard');
    assert.equal(tamperOf(undefined, '{"model":"a"}', 'json'), undefined, 'a new file');
  });

  it("counts a dropped or altered handler, its group's matcher, and a file the agent could no longer read", () => {
    assert.equal(tamperOf(settings(), '{}', 'json'), 'entry');
    assert.equal(tamperOf(settings(), undefined, 'json'), 'entry');
    assert.equal(tamperOf(settings(), settings({}, { ...ours, timeout: 0.001 }), 'json'), 'entry');
    assert.equal(tamperOf(settings(), settings().replace('"matcher": "*"', '"matcher": "Read"'), 'json'), 'entry');
    assert.equal(tamperOf(settings(), settings() + ',', 'json'), 'entry');
  });

  it('counts the switches and the settings named after stallguard', () => {
    assert.equal(tamperOf(settings(), settings({ disableAllHooks: true }), 'json'), 'switch');
    assert.equal(
      tamperOf('{}', '{"disableAllHooks": true}', 'json'),
      'switch',
      'also where stallguard is not installed',
    );
    assert.equal(tamperOf('{}', '{"hooksConfig": {"enabled": false}}', 'json'), 'switch');
    assert.equal(tamperOf('{}', '{"hooksConfig": {"disabled": ["stallguard"]}}', 'json'), 'switch');
    assert.equal(tamperOf('{}', '{"env": {"STALLGUARD_MODE": "off"}}', 'json'), 'switch');
    assert.equal(
      tamperOf(
        '{"enabledPlugins": {"stallguard@stallguard": true}}',
        '{"enabledPlugins": {"stallguard@stallguard": false}}',
        'json',
      ),
      'entry',
    );
    assert.equal(tamperOf('{"disableAllHooks": true}', '{}', 'json'), undefined, 'turning hooks back on');
  });

  it('reads comments and trailing commas where the file has them, as Gemini CLI does', () => {
    const commented = `// mine\n${settings()}`.replace('"model": "sonnet",', '"model": "sonnet", /* for now */');
    assert.ok(holdsStallguard(commented, 'json'));
    assert.equal(tamperOf(commented, commented.replace('sonnet', 'opus'), 'json'), undefined);
    assert.equal(withoutComments('{"a": "x // y, }", /* c */ "b": [1,],}'), '{"a": "x // y, }",  "b": [1]}');
  });

  it('reads a file that does not parse line by line', () => {
    const broken = settings().slice(0, -3);
    assert.ok(holdsStallguard(broken, 'json'));
    assert.equal(tamperOf(broken, broken.replace('sonnet', 'opus'), 'json'), undefined);
    assert.equal(tamperOf(broken, broken.replace(' # stallguard', ''), 'json'), 'entry');
  });
});

describe('stallguard entries in Codex TOML', () => {
  const toml =
    'model = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "npx"\n\n[[hooks.PreToolUse]]\n' +
    'matcher = ".*"\n[[hooks.PreToolUse.hooks]]\ntype = "command"\n' +
    'command = "node /opt/sg/dist/hook.cjs --agent codex # stallguard"\ntimeout = 10\n';

  it("leaves the person's tables to them", () => {
    assert.ok(holdsStallguard(toml, 'toml'));
    assert.equal(
      tamperOf(toml, toml.replace('gpt-5', 'gpt-5-codex').replace('command = "npx"', 'command = "uvx"'), 'toml'),
      undefined,
    );
    assert.equal(tamperOf(toml, toml + '\n[mcp_servers.more]\ncommand = "x" # a comment\n', 'toml'), undefined);
  });

  it("counts a change to stallguard's table or its group, and the switches", () => {
    assert.equal(tamperOf(toml, toml.replace('timeout = 10', 'timeout = 1'), 'toml'), 'entry');
    assert.equal(tamperOf(toml, toml.replace('matcher = ".*"', 'matcher = "^Read$"'), 'toml'), 'entry');
    assert.equal(tamperOf(toml, toml.replace('[[hooks.PreToolUse.hooks]]', '[[x.PreToolUse.hooks]]'), 'toml'), 'entry');
    assert.equal(tamperOf(toml, toml + '\n[features]\nhooks = false\n', 'toml'), 'switch');
    assert.equal(tamperOf('', 'features.codex_hooks = false', 'toml'), 'switch');
    assert.equal(tamperOf('', 'allow_managed_hooks_only = true', 'toml'), 'switch');
    assert.equal(tamperOf('', '[features]\nhooks = true', 'toml'), undefined);
  });
});
