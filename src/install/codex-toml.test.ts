import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'smol-toml';
import { codexTomlTarget } from './codex-toml.ts';
import { SettingsError } from './settings-json.ts';

// Codex's config.toml form: stallguard's [[hooks.<Event>]] tables go in one marked block at the end,
// every comment and setting of the person's stays, and remove gives their text back byte for byte.

const CMD = '/usr/bin/node /opt/stallguard/dist/hook.cjs --agent codex';
const FILE = '/home/dev/.codex/config.toml';
const MINE = `# my Codex settings
model = "gpt-5" # the default
approval_policy = "on-request"

[model_providers.local]
base_url = "http://127.0.0.1:8080/v1"

# my own hook
[[hooks.PreToolUse]]
matcher = "^Bash$"

[[hooks.PreToolUse.hooks]]
type = "command"
command = "./check.sh"
`;

describe('install: Codex CLI (config.toml)', () => {
  const { add, remove, installed } = codexTomlTarget;

  it("registers one marked command per event, each in a group of its own, after the person's own", () => {
    const text = add(MINE, FILE, CMD);
    assert.ok(text.startsWith(MINE));
    const hooks = (
      parse(text) as { hooks: Record<string, { matcher?: string; hooks: { command: string; timeout: number }[] }[]> }
    ).hooks;
    assert.deepEqual(Object.keys(hooks).sort(), [...codexTomlTarget.events].sort());
    assert.deepEqual(
      hooks.PreToolUse!.map((g) => g.hooks[0]!.command),
      ['./check.sh', `${CMD} # stallguard`],
    );
    // Codex matchers are regexes: no matcher means every tool
    assert.equal('matcher' in hooks.PreToolUse![1]!, false);
    assert.equal(hooks.Stop![0]!.hooks[0]!.timeout, 10);
    assert.equal(installed(text, FILE), `${CMD} # stallguard`);
    assert.equal(installed(MINE, FILE), undefined);
  });

  it('is idempotent, and replaces an older command in place', () => {
    const once = add(MINE, FILE, CMD);
    assert.equal(add(once, FILE, CMD), once);
    assert.equal(add(add(MINE, FILE, '/old/node /old/hook.cjs --agent codex'), FILE, CMD), once);
  });

  for (const [name, before] of [
    ['a file ending in a newline', MINE],
    ['a file without a final newline', MINE.trimEnd()],
    ['an empty file', ''],
  ] as const) {
    it(`remove restores ${name} exactly`, () => {
      assert.equal(remove(add(before, FILE, CMD), FILE), before);
      assert.equal(remove(before, FILE), before, 'nothing of ours: unchanged');
    });
  }

  it('keeps what the person wrote after the block, and moves the block to the end on the next install', () => {
    const later = `${add(MINE, FILE, CMD)}\n[features]\nhooks = true\n`;
    assert.equal(remove(later, FILE), `${MINE}\n[features]\nhooks = true\n`);
    assert.equal(add(later, FILE, CMD), add(`${MINE}\n[features]\nhooks = true\n`, FILE, CMD));
  });

  it('refuses a file that is not TOML, or that its tables would break, naming it and changing nothing', () => {
    assert.throws(
      () => add('model = ', FILE, CMD),
      (e: Error) => e instanceof SettingsError && e.message.startsWith(`${FILE} is not valid TOML`),
    );
    assert.throws(
      () => add('[hooks]\nPreToolUse = []\n', FILE, CMD),
      (e: Error) => e instanceof SettingsError && /cannot go into this file.*hooks\.json instead/.test(e.message),
    );
    assert.throws(
      () => installed('hooks = 3\n', FILE),
      (e: Error) => e instanceof SettingsError && /"hooks" must be a table/.test(e.message),
    );
  });
});
