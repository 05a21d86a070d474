import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'jsonc-parser';
import { TARGETS } from './targets.ts';
import { SettingsError } from './settings-json.ts';
import { holdsNothing } from './apply.ts';

// Every agent's settings edit: idempotent, preserving everything else, and undone exactly by remove.

const CMD = '/usr/bin/node /opt/stallguard/dist/hook.cjs --agent X';
const OLD = '/old/node /old/stallguard/dist/hook.cjs --agent X';

/** A settings file a person wrote: comments, other settings, a hook of their own on an event we use. */
const EXISTING: Record<string, string> = {
  claude: `{
  // my settings
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      { "matcher": "Bash", "hooks": [{ "type": "command", "command": "./check.sh" }] }
    ]
  }
}
`,
  codex: `{
  "hooks": {
    "PostToolUse": [
      { "matcher": "^Bash$", "hooks": [{ "type": "command", "command": "python3 log.py", "timeout": 30 }] }
    ]
  }
}
`,
  gemini: `{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  /* keep this */
  "hooks": {
    "AfterTool": [
      { "matcher": "write_file", "hooks": [{ "name": "fmt", "type": "command", "command": "prettier -w" }] }
    ]
  }
}
`,
  cursor: `{
  "version": 1,
  "hooks": {
    "afterFileEdit": [{ "command": ".cursor/hooks/format.sh" }],
    "preToolUse": [{ "command": ".cursor/hooks/audit.sh", "matcher": "Shell" }]
  }
}
`,
  copilot: `{
  "version": 1,
  "hooks": { "sessionStart": [{ "type": "command", "bash": "echo hi" }] }
}
`,
  qwen: `{
  // Qwen Code adds its own settings version
  "$version": 4,
  "security": { "auth": { "selectedType": "openai" } },
  "hooks": { "PostToolUse": [{ "matcher": "write_file", "hooks": [{ "type": "command", "command": "prettier -w" }] }] }
}
`,
};

const HANDLER_CHECKS: Record<string, (settings: Record<string, any>) => void> = {
  claude: (s) => {
    assert.equal(s.hooks.PreToolUse.at(-1).matcher, '*');
    assert.equal(s.hooks.PostToolUseFailure[0].hooks[0].timeout, 10);
  },
  // Codex matchers are regexes: no matcher means every tool
  codex: (s) => assert.equal('matcher' in s.hooks.PreToolUse[0], false),
  // Gemini timeouts are in milliseconds
  gemini: (s) =>
    assert.deepEqual(s.hooks.AfterAgent[0].hooks[0], {
      type: 'command',
      name: 'stallguard',
      command: `${CMD} # stallguard`,
      timeout: 10000,
    }),
  cursor: (s) => {
    assert.equal(s.version, 1);
    assert.deepEqual(s.hooks.subagentStart, [{ command: `${CMD} # stallguard`, timeout: 10 }]);
  },
  copilot: (s) => {
    assert.equal(s.version, 1);
    assert.deepEqual(s.hooks.preToolUse, [{ type: 'command', bash: `${CMD} # stallguard`, timeoutSec: 10 }]);
    // where a stopped agent is ended
    assert.equal(s.hooks.permissionRequest.length, 1);
  },
  // Qwen timeouts are in seconds; UserPromptSubmit fires before every model request, where a stop ends the turn
  qwen: (s) => {
    assert.deepEqual(s.hooks.PostToolUseFailure, [
      { matcher: '*', hooks: [{ type: 'command', command: `${CMD} # stallguard`, timeout: 10 }] },
    ]);
    assert.equal('matcher' in s.hooks.UserPromptSubmit[0], false);
  },
};

// the agents with hook settings; the in-process plugins (opencode, pi) have a file of their own, below
for (const target of Object.values(TARGETS).filter((t) => !t.plugin)) {
  describe(`install: ${target.label}`, () => {
    const file = `/proj/${target.agent}.json`;

    it('registers one marked command for every event it needs', () => {
      const text = target.add('', file, CMD);
      const settings = parse(text) as Record<string, any>;
      assert.deepEqual(Object.keys(settings.hooks).sort(), [...target.events].sort());
      assert.equal(target.installed(text, file), `${CMD} # stallguard`);
      HANDLER_CHECKS[target.agent]!(settings);
    });

    it('is idempotent, and replaces an older command in place', () => {
      const once = target.add(EXISTING[target.agent]!, file, CMD);
      assert.equal(target.add(once, file, CMD), once);
      const old = target.add(EXISTING[target.agent]!, file, OLD);
      assert.equal(target.add(old, file, CMD), once);
    });

    it('keeps every other setting, hook and comment, and remove restores the file exactly', () => {
      const before = EXISTING[target.agent]!;
      const after = target.add(before, file, CMD);
      for (const comment of before.split('\n').filter((l) => /\/\/|\/\*/.test(l)))
        assert.ok(after.includes(comment), `kept: ${comment}`);
      const was = parse(before) as Record<string, any>;
      const now = parse(after) as Record<string, any>;
      for (const key of Object.keys(was).filter((k) => k !== 'hooks')) assert.deepEqual(now[key], was[key], key);
      for (const [event, entries] of Object.entries(was.hooks as Record<string, unknown[]>))
        assert.deepEqual(now.hooks[event].slice(0, entries.length), entries, event);
      assert.equal(target.remove(after, file), before);
      assert.equal(target.installed(before, file), undefined);
    });

    it("leaves nothing of anyone's in a file it created", () => {
      const removed = target.remove(target.add('', file, CMD), file);
      assert.ok(holdsNothing(removed), removed);
    });

    it('keeps the empty lists and `hooks` a person had: only what its own removal empties goes', () => {
      const theirs = target.add('{ "hooks": {} }', file, CMD).replace('"hooks": {', '"hooks": {\n    "Unrelated": [],');
      const removed = parse(target.remove(theirs, file)) as Record<string, any>;
      assert.deepEqual(removed.hooks, { Unrelated: [] });
      assert.equal(target.remove('{ "hooks": {} }', file), '{ "hooks": {} }');
    });

    it('names the file when it is not valid JSON, and changes nothing', () => {
      assert.throws(
        () => target.add('{ "hooks": ', file, CMD),
        (e: Error) => e instanceof SettingsError && e.message.includes(file),
      );
      assert.throws(
        () => target.add('{ "hooks": [] }', file, CMD),
        (e: Error) => e instanceof SettingsError && /"hooks" must be an object/.test(e.message),
      );
    });
  });
}

for (const target of Object.values(TARGETS).filter((t) => t.plugin)) {
  describe(`install: ${target.label} (plugin file)`, () => {
    const file = `/proj/${target.agent}/stallguard.js`;
    const bundle = `/opt/stallguard/dist/${target.plugin}`;

    it('writes one file that loads the bundled plugin by its absolute path', () => {
      const text = target.add('', file, bundle);
      assert.equal(target.installed(text, file), bundle);
      assert.match(text, new RegExp(`^export \\{ \\w+ \\} from "${bundle}";$`, 'm'));
      assert.match(text, new RegExp(`stallguard uninstall --agent ${target.agent}`));
    });

    it('is idempotent, and moves an older install to the new bundle in place', () => {
      const once = target.add('', file, bundle);
      assert.equal(target.add(once, file, bundle), once);
      assert.equal(target.add(target.add('', file, '/old/dist/plugin.js'), file, bundle), once);
    });

    it('removes its own file whole, and leaves a file of the same name written by someone else alone', () => {
      assert.equal(target.remove(target.add('', file, bundle), file), '');
      const theirs = 'export const Mine = async () => ({});\n';
      assert.equal(target.remove(theirs, file), theirs);
      assert.equal(target.installed(theirs, file), undefined);
      assert.throws(
        () => target.add(theirs, file, bundle),
        (e: Error) => e instanceof SettingsError && e.message.includes(file),
      );
    });

    it('quotes a path with quotes or backslashes in it so that the module still names it', () => {
      const odd = '/opt/my "stall"\\guard/dist/plugin.js';
      assert.equal(target.installed(target.add('', file, odd), file), odd);
    });
  });
}
