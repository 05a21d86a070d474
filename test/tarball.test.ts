import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { parse as parseJsonc } from 'jsonc-parser';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { claude } from './support/hook-process.ts';
import { SEED_RULE } from './support/config.ts';
import { freePort } from './support/free-port.ts';

// The way a person gets stallguard without the npm registry: `npm pack` in a clone, the tarball installed
// globally (here into a scratch prefix), then `stallguard install` in a project of theirs. The command it
// writes must run the installed copy, and nothing of it may be left for git to commit.

const ROOT = join(import.meta.dirname, '..');

function run(command: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string }) {
  const r = spawnSync(command, args, { ...opts, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `${command} ${args.join(' ')}: ${r.stderr}${r.error ?? ''}`);
  return r.stdout;
}

/** The command the settings file registers for an event (beside the daemon's http hook, where there is one). */
function commandFor(settings: string, event: string): string {
  return parseJsonc(settings).hooks[event][0].hooks.find((h: { command?: string }) => h.command).command;
}

describe('from npm pack to a guarded project', {
  skip: existsSync(join(ROOT, 'dist', 'cli.js')) ? false : 'dist is not built (npm test builds it)',
}, () => {
  it('installs the tarball, registers its hook in a git project out of git, and the written command catches a loop', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'sg-tarball-'));
    const home = join(scratch, 'home');
    const prefix = join(scratch, 'prefix');
    const project = join(scratch, 'project');
    for (const d of [home, project]) mkdirSync(d);
    const env: NodeJS.ProcessEnv = {
      PATH: `${join(prefix, 'bin')}:${dirname(process.execPath)}:/usr/bin:/bin`,
      HOME: home,
      STALLGUARD_HOME: join(home, '.stallguard'),
      npm_config_cache: join(scratch, 'npm-cache'),
      NPM_CONFIG_UPDATE_NOTIFIER: 'false',
    };

    // dist is built already (npm test builds first), so pack without running prepare again
    const packed = JSON.parse(
      run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], { cwd: ROOT, env }),
    ) as { filename: string }[];
    const tarball = join(scratch, packed[0]!.filename);
    // the package has no runtime dependencies: installing it needs no registry
    run('npm', ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball], {
      cwd: scratch,
      env,
    });
    const installed = join(prefix, 'lib', 'node_modules', 'stallguard');
    assert.ok(existsSync(join(prefix, 'bin', 'stallguard')));

    run('git', ['init', '-q'], { cwd: project, env });
    writeFileSync(join(project, '.stallguard.json'), JSON.stringify({ mode: 'enforce', ...SEED_RULE }));
    run('git', ['add', '.stallguard.json'], { cwd: project, env });
    const port = freePort();
    const out = run('stallguard', ['install', '--port', String(port)], { cwd: project, env });
    assert.match(out, /registered the hook for Claude Code in \.claude\/settings\.local\.json/);

    const settings = readFileSync(join(project, '.claude', 'settings.local.json'), 'utf8');
    const command = commandFor(settings, 'PreToolUse');
    assert.ok(command.includes(`${join(installed, 'dist', 'hook.cjs')} --agent claude --serve-port ${port}`), command);
    assert.equal(
      run('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: project, env }),
      'A  .stallguard.json\n',
      'nothing of the install for git',
    );

    // the written command, run as Claude Code runs it, on a failing test run repeated: the first call finds no
    // daemon, runs the installed hook and starts the installed daemon, which takes every call after it (here
    // through the first stage, as the agents with command hooks alone reach it); the fifth is nudged
    const client = join(installed, 'dist', 'hook-client.sh');
    const answers: string[] = [];
    try {
      for (let i = 0; i < 5; i++) {
        run('sh', ['-c', `bash ${client} claude || ${command}`], {
          cwd: project,
          env,
          input: JSON.stringify(claude.pre(project, 'Bash', { command: 'npm test' })),
        });
        assert.ok(
          existsSync(join(home, '.stallguard', 'serve.pid')),
          'the daemon listens once the first call is answered',
        );
        answers.push(
          run('bash', [client, 'claude'], {
            cwd: project,
            env,
            input: JSON.stringify(claude.failure(project, 'npm test', '1 passed, 1 failed')),
          }),
        );
      }
    } finally {
      const pid = Number(readFileSync(join(home, '.stallguard', 'serve.pid'), 'utf8').split(' ')[0]);
      if (pid) process.kill(pid);
    }
    assert.deepEqual(answers.slice(0, 4), ['', '', '', '']);
    assert.match(JSON.parse(answers[4]!).hookSpecificOutput.additionalContext, /^stallguard: .*`Bash npm test` x5/);
    assert.equal(readdirSync(join(home, '.stallguard', 'sessions')).filter((n) => n.endsWith('.jsonl')).length, 1);

    // the shared install runs that same copy from PATH
    run('stallguard', ['install', '--scope', 'project'], { cwd: project, env });
    const shared = commandFor(readFileSync(join(project, '.claude', 'settings.json'), 'utf8'), 'UserPromptSubmit');
    assert.equal(shared.includes(scratch), false, shared);
    run('sh', ['-c', shared], {
      cwd: project,
      env,
      input: JSON.stringify(claude.prompt(project, 'next task', 'sess-2')),
    });
    assert.equal(readdirSync(join(home, '.stallguard', 'sessions')).filter((n) => n.endsWith('.jsonl')).length, 2);
  });
});
