import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { guardCall, type GuardContext } from './guard.ts';
import {
  harmlessCases,
  seedFiles,
  seedLinks,
  systemFiles,
  tamperCases,
  type World,
} from '../../test/support/tamper-cases.ts';

// Every way we know for an agent to switch the guard off, each of which must be denied, beside the
// person's own changes to the same files and ordinary work next to them, none of which may be. The
// machine is described in memory here; test/self-protect-process.test.ts runs the same examples through
// the real hook process on real files.

const w: World = {
  home: '/home/dev',
  proj: '/home/dev/proj',
  sg: '/home/dev/.stallguard',
  self: '/opt/stallguard/dist',
  root: '/opt/stallguard',
  node: '/usr/local/bin/node',
  claudeConfig: '/home/dev/.config/claude',
  codexHome: '/srv/codex',
};

/** A machine in memory: files, the folders they imply, symbolic links followed the way realpath does. */
function machine(
  files: Record<string, string>,
  links: Record<string, string>,
): Pick<GuardContext, 'readText' | 'realpath'> {
  const realpath = (abs: string): string | undefined => {
    let p = abs;
    for (let hop = 0; hop < 8; hop++) {
      const link = Object.keys(links).find((from) => p === from || p.startsWith(from + '/'));
      if (!link) break;
      p = links[link]! + p.slice(link.length);
    }
    return p;
  };
  const readText = (abs: string): string | null | undefined => {
    const p = realpath(abs)!;
    if (Object.hasOwn(files, p)) return files[p];
    return Object.keys(files).some((f) => f.startsWith(p + '/')) ? null : undefined;
  };
  return { readText, realpath };
}

const ctx: GuardContext = {
  cwd: w.proj,
  home: w.home,
  stallguardHome: w.sg,
  selfDir: w.self,
  nodePath: w.node,
  configDirs: [w.claudeConfig, w.codexHome],
  ...machine({ ...seedFiles(w), ...systemFiles(w) }, seedLinks(w)),
};

const call = ([name, input]: [string, unknown]) => ({ name, input });

describe('self-protection', () => {
  for (const { name, call: c } of tamperCases(w)) {
    it(`denies ${name}`, () => assert.ok(guardCall(call(c), ctx), JSON.stringify(c)));
  }
  for (const { name, call: c } of harmlessCases(w)) {
    it(`allows ${name}`, () => assert.equal(guardCall(call(c), ctx), undefined, JSON.stringify(c)));
  }

  it(
    'from a folder that is not a build folder (the Gemini extension, a ' +
      'copied bundle), protects the bundle and the extension, not the folder',
    () => {
      const loose: GuardContext = { ...ctx, selfDir: '/tmp' };
      assert.ok(guardCall({ name: 'Bash', input: { command: 'rm /tmp/hook.cjs' } }, loose));
      assert.ok(guardCall({ name: 'Write', input: { file_path: '/tmp/gemini-extension.json', content: '{}' } }, loose));
      assert.ok(guardCall({ name: 'Write', input: { file_path: '/tmp/hooks/hooks.json', content: '{}' } }, loose));
      for (const command of [
        'npm test 2>&1 | tee /tmp/out.log',
        'tar -xzf x.tgz -C /tmp',
        `python3 -c "open('/tmp/x.txt', 'w').write('x')"`,
        'rm -rf /tmp/build-123',
      ]) {
        assert.equal(guardCall({ name: 'Bash', input: { command } }, loose), undefined, command);
      }
    },
  );

  it('names what it found, and what kind of thing it is', () => {
    assert.deepEqual(guardCall({ name: 'Bash', input: { command: 'cd .claude && rm settings.json' } }, ctx), {
      code: 'SELF_PROTECT',
      path: '/home/dev/proj/.claude/settings.json',
      kind: 'entry',
      command: 'stallguard uninstall --agent claude',
    });
    assert.deepEqual(
      guardCall(
        { name: 'Edit', input: { file_path: '~/.codex/hooks.json', old_string: '# stallguard', new_string: '' } },
        ctx,
      )?.command,
      'stallguard uninstall --agent codex --scope user',
    );
    // the same edit in the words of opencode and Copilot
    assert.equal(
      guardCall(
        { name: 'edit', input: { filePath: '~/.codex/hooks.json', oldString: '# stallguard', newString: '' } },
        ctx,
      )?.kind,
      'entry',
    );
    assert.equal(
      guardCall({ name: 'edit', input: { path: '~/.codex/hooks.json', old_str: '# stallguard', new_str: '' } }, ctx)
        ?.kind,
      'entry',
    );
    assert.equal(
      guardCall({ name: 'Write', input: { file_path: '.stallguard.json', content: '{}' } }, ctx)?.kind,
      'own',
    );
    assert.equal(
      guardCall({ name: 'Write', input: { file_path: '.stallguard.tuned.json', content: '{}' } }, ctx)?.kind,
      'own',
    );
    assert.equal(guardCall({ name: 'Bash', input: { command: 'export STALLGUARD_MODE=off' } }, ctx)?.kind, 'switch');
    assert.deepEqual(guardCall({ name: 'Bash', input: { command: 'npm rm -g stallguard' } }, ctx), {
      code: 'SELF_PROTECT',
      path: 'stallguard',
      kind: 'uninstall',
      command: 'npm rm -g stallguard',
    });
  });

  it(
    'without the files (a replay of a session recorded elsewhere), settings ' +
      'hold no stallguard entries; its own files and the switches stay protected',
    () => {
      const replay: GuardContext = { cwd: w.proj, home: w.home };
      for (const input of [
        { file_path: '.claude/settings.json', content: '{}' },
        { file_path: '~/.claude/settings.json', old_string: '"hooks": {', new_string: '"x": {' },
      ]) {
        assert.equal(guardCall({ name: input.content === undefined ? 'Edit' : 'Write', input }, replay), undefined);
      }
      assert.equal(guardCall({ name: 'Bash', input: { command: 'rm .claude/settings.json' } }, replay), undefined);
      assert.ok(
        guardCall(
          { name: 'Write', input: { file_path: '.claude/settings.json', content: '{"disableAllHooks": true}' } },
          replay,
        ),
      );
      assert.ok(
        guardCall(
          {
            name: 'Edit',
            input: { file_path: '.claude/settings.json', old_string: '{', new_string: '{"disableAllHooks": true,' },
          },
          replay,
        ),
      );
      assert.ok(guardCall({ name: 'Bash', input: { command: 'rm -rf ~/.stallguard' } }, replay));
      assert.ok(
        guardCall({ name: 'Write', input: { file_path: '.stallguard.json', content: '{"mode":"off"}' } }, replay),
      );
    },
  );

  it('a settings file it cannot read counts as holding stallguard entries', () => {
    const unreadable: GuardContext = { ...ctx, readText: () => null };
    assert.ok(guardCall({ name: 'Bash', input: { command: 'rm ~/other/.claude/settings.json' } }, unreadable));
    assert.ok(
      guardCall({ name: 'Write', input: { file_path: '~/other/.claude/settings.json', content: '{}' } }, unreadable),
    );
  });

  it('reads huge and hostile commands to the end, allowing them alone and still finding a tamper beside them', {
    timeout: 30_000,
  }, () => {
    // the timeout is no measurement: a regular expression that backtracks would take minutes here
    const stars = '*a'.repeat(40);
    const tamper = 'rm -rf ~/.stallguard';
    const hostile = [
      'export '.repeat(200_000),
      'a'.repeat(2_000_000),
      '.claude'.repeat(200_000),
      'open(x'.repeat(1_000_000),
      `rm ~/${stars}/${stars}`,
      `rm ${'['.repeat(10_000)}`,
      `rm ${'{a,'.repeat(5_000)}`,
    ];
    // these never close what they open, so a tamper after them is inside their quote or substitution
    const unclosed = ['$('.repeat(100_000), "'".repeat(500_001)];
    for (const command of [...hostile, ...unclosed]) {
      const label = command.slice(0, 12);
      assert.equal(guardCall({ name: 'Bash', input: { command } }, ctx), undefined, label);
      assert.equal(
        guardCall({ name: 'python3', input: { command: `python3 -c "${command}"` } }, ctx),
        undefined,
        label,
      );
      assert.ok(guardCall({ name: 'Bash', input: { command: `${tamper}; ${command}` } }, ctx), label);
      if (hostile.includes(command))
        assert.ok(guardCall({ name: 'Bash', input: { command: `${command} ; ${tamper}` } }, ctx), label);
    }
  });
});
