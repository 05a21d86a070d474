import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeTranscript, tempHome, write } from './support/histories.ts';
import { REREAD_SESSIONS, rereads, workDay } from './support/day.ts';
import { hookSession } from './support/ledger.ts';
import { CLI } from './support/hook-process.ts';

// stallguard tune from the command line: what it does with no verdicts, with settings set by hand, in a
// project's scope, with a person who marks everything wrong, and for scripts.

const cli = (home: string, args: string[], cwd = home) => {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, HOME: home, STALLGUARD_HOME: home },
    encoding: 'utf8',
    cwd,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};
const ids = (home: string) =>
  cli(home, ['review', '--json'])
    .out.split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; session: string });
/** Marks the re-read nudges wrong and everything else right, as the person of test/support/day.ts does. */
function markDay(home: string, cwd = home): void {
  const marks = ids(home).flatMap((i) => ['--mark', `${i.id}=${i.session.startsWith('reread') ? 'wrong' : 'right'}`]);
  assert.equal(cli(home, ['review', ...marks], cwd).code, 0);
}

describe('stallguard tune', () => {
  it('with no verdicts says how to give some, and changes nothing', () => {
    const home = tempHome();
    workDay(home);
    const r = cli(home, ['tune', '--write']);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /^No verdicts yet: tune learns from what you mark right or wrong\. Run stallguard review .* Nothing was changed\.\n$/,
    );
    assert.ok(!existsSync(join(home, 'tuned.json')));
  });

  it('prints before and after without saving anything, unless --write', () => {
    const home = tempHome();
    workDay(home);
    markDay(home);
    const r = cli(home, ['tune']);
    assert.match(r.out, /Your verdicts it agrees with: 4 of 10 now, 10 of 10 tuned\./);
    assert.match(r.out, /go: +session reread-\d call \d+: nudge `Read src\/a\.ts` x\d +\(you marked it wrong\)/);
    assert.match(r.out, /Nothing saved\. stallguard tune --write saves this to /);
    assert.ok(!existsSync(join(home, 'tuned.json')));
  });

  it('leaves what a config file sets by hand as it is: a hand-written file wins over the tuned layer', () => {
    const home = tempHome();
    workDay(home);
    markDay(home);
    writeFileSync(join(home, 'config.json'), JSON.stringify({ judge: { levels: { REREAD: 3 } } }));
    const r = cli(home, ['tune', '--write']);
    assert.match(r.out, /Set by hand, so left as they are: judge\.levels\.REREAD \(.*config\.json\)\./);
    const layer = JSON.parse(readFileSync(join(home, 'tuned.json'), 'utf8')) as {
      judge?: { levels: Record<string, number> };
    };
    assert.ok(!layer.judge || !('REREAD' in layer.judge.levels));
    // with REREAD held at 3 by hand, nothing tune may do silences those re-reads
    assert.match(r.out, /Your verdicts it agrees with: 4 of 10 now, 4 of 10 tuned\./);
  });

  it("in a project's scope: learns from that project's sessions, writes beside the project, beneath its own file", () => {
    const home = tempHome();
    const project = join(tempHome(), 'shop');
    mkdirSync(join(project, '.git'), { recursive: true });
    mkdirSync(join(project, 'src'));
    for (const [i, id] of REREAD_SESSIONS.entries()) hookSession(home, id, rereads(i), { config: null, cwd: project });
    // elsewhere, the same re-reads marked right: not this project's
    for (const id of ['other-1', 'other-2', 'other-3'])
      hookSession(home, id, rereads(9), { config: null, cwd: '/home/dev/elsewhere' });
    for (const i of ids(home))
      cli(home, ['review', '--mark', `${i.id}=${i.session.startsWith('reread') ? 'wrong' : 'right'}`]);
    const r = cli(home, ['tune', '--scope', 'project', '--write'], join(project, 'src'));
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^stallguard tune: 6 verdicts \(0 right, 6 wrong\)\./);
    assert.match(r.out, /judge\.levels\.REREAD +\d+ +\d+ +\+6 \/ -0/);
    const file = join(project, '.stallguard.tuned.json');
    assert.ok(existsSync(file));
    assert.match(
      cli(home, ['status'], project).out,
      /tuned \(project scope\) on .* from 6 verdicts: .*REREAD \d+ -> \d+/,
    );
    assert.doesNotMatch(cli(home, ['status'], home).out, /tuned/);
    // the project's own file wins over what was tuned for it
    writeFileSync(join(project, '.stallguard.json'), JSON.stringify({ judge: { levels: { REREAD: 4 } } }));
    const config = JSON.parse(cli(home, ['tune', '--scope', 'project', '--json'], project).out) as {
      settings: { before: { levels: Record<string, number> } };
    };
    assert.equal(config.settings.before.levels.REREAD, 4);
    assert.match(
      cli(home, ['tune', '--reset', '--scope', 'project'], project).out,
      /^Removed .*\.stallguard\.tuned\.json/,
    );
    assert.ok(!existsSync(file));
  });

  it('warns a person who marks every intervention wrong, and changes the settings only within bounds', () => {
    const home = tempHome();
    workDay(home);
    cli(home, ['review', ...ids(home).flatMap((i) => ['--mark', `${i.id}=wrong`])]);
    const r = JSON.parse(cli(home, ['tune', '--json']).out) as {
      warning: string;
      changes: { setting: string }[];
      heldBySeed: unknown[];
      agreed: { after: number; of: number };
    };
    assert.match(r.warning, /^You marked 10 of 10 interventions wrong\. .* never touches the seed floors/);
    const text = cli(home, ['tune']).out;
    assert.match(text, /^stallguard tune: 10 verdicts \(0 right, 10 wrong\)\.\n\nwarning: You marked 10 of 10/);
    assert.ok(
      r.changes.every(
        (c) =>
          c.setting.startsWith('judge.levels.') ||
          ['failRepeat', 'unchangedFailures', 'sameFailures', 'pollRepeat'].includes(c.setting),
      ),
    );
    assert.ok(
      r.agreed.after < r.agreed.of,
      'the failing loops stay flagged: silencing them would take more than the bounds allow',
    );
  });

  it('weighs a verdict on a session no longer on this machine by the signals recorded with it', () => {
    const home = tempHome();
    workDay(home);
    markDay(home);
    for (const id of REREAD_SESSIONS) rmSync(join(home, 'sessions', `${id}.jsonl`));
    const r = cli(home, ['tune']);
    assert.match(
      r.out,
      /\(6 verdicts on sessions no longer on this machine weighed by the signals recorded with them\.\)/,
    );
    assert.match(r.out, /Replayed on your history \(2 sessions\)/);
  });

  it("finds a verdict given on the agents' history again in the history file, and with --scan replays all of it", () => {
    const home = tempHome();
    const history = join(home, '.claude', 'projects', 'p');
    write(join(history, 's-old.jsonl'), claudeTranscript('s-old'));
    write(join(history, 's-other.jsonl'), claudeTranscript('s-other'));
    const [item] = cli(home, ['review', '--scan', '--json'])
      .out.split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; session: string })
      .filter((i) => i.session === 's-old');
    assert.equal(cli(home, ['review', '--scan', '--mark', `${item!.id}=wrong`]).code, 0);
    const r = cli(home, ['tune']);
    assert.match(r.out, /Replayed on your history \(1 session\)/);
    assert.doesNotMatch(r.out, /no longer on this machine/);
    assert.match(cli(home, ['tune', '--scan']).out, /Replayed on your history \(2 sessions\)/);
  });

  it('a tuned layer holds learned settings only: a mode or anything else written into it is ignored, and named', () => {
    const home = tempHome();
    writeFileSync(join(home, 'tuned.json'), JSON.stringify({ mode: 'off', failRepeat: 6, judge: { threshold: 0.1 } }));
    const status = cli(home, ['status']);
    assert.match(status.out, /^mode: shadow /);
    assert.match(status.err, /tuned\.json: mode is not a setting stallguard tune writes/);
    assert.match(status.err, /tuned\.json: judge\.threshold is not a setting stallguard tune writes/);
    const tuned = JSON.parse(cli(home, ['tune', '--json']).out) as { verdicts: number };
    assert.equal(tuned.verdicts, 0);
    assert.match(cli(home, ['doctor']).out, /tuned \(user scope\): failRepeat 6 \(/);
  });

  it('refuses what it cannot do in one line', () => {
    const home = tempHome();
    for (const [args, problem] of [
      [['tune', '--write', '--reset'], /--write and --reset do opposite things/],
      [['tune', '--scope', 'team'], /--scope must be one of user, project \(got "team"\)/],
      [['tune', '--frobnicate'], /^stallguard tune: Unknown option '--frobnicate'/],
      [['tune', 'x'], /paths are read with --scan/],
    ] as const) {
      const r = cli(home, [...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.err, problem);
      assert.equal(r.err.trim().split('\n').length, 1);
    }
  });
});
