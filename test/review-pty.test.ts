import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempHome } from './support/histories.ts';
import { rereads, workDay } from './support/day.ts';
import { hookSession } from './support/ledger.ts';
import { CLI } from './support/hook-process.ts';
import { missing } from './support/needs.ts';

// The loop the issue asks for, as a person goes through it: a day of work in shadow mode, `stallguard
// review` in a terminal (a pseudo-terminal made by util-linux's script(1): one key per answer, no Enter),
// `stallguard tune --write`, and its before/after agreeing with the verdicts on the person's own history,
// the floors intact; status and doctor say it is tuned, and --reset undoes it.

const SCRIPT = '/usr/bin/script';
const skip = missing(SCRIPT, 'apt-get install bsdutils (script(1), which makes the pseudo-terminal)');
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs `stallguard review` on a pseudo-terminal and answers each question with answer(the intervention shown). */
function reviewInTerminal(
  home: string,
  answer: (shown: string, asked: number) => string,
): Promise<{ out: string; code: number | null }> {
  const child = spawn(SCRIPT, ['-qfec', `${quote(process.execPath)} ${quote(CLI)} review`, '/dev/null'], {
    env: { PATH: process.env.PATH, HOME: home, STALLGUARD_HOME: home, TERM: 'dumb' },
    cwd: home,
  });
  let out = '';
  let asked = 0;
  const question = 'Was stallguard right to step in here?';
  child.stdout.on('data', (b: Buffer) => {
    out += b.toString().replace(/\r\n/g, '\n');
    const seen = out.split(question).length - 1;
    // answer each question once, from what the screen shows above it
    while (asked < seen) {
      const shown = out
        .split(question)
        [asked]!.split(/\n\[\d+\/\d+\]/)
        .at(-1)!;
      child.stdin.write(answer(shown, asked++));
    }
  });
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ out, code })));
}

const cli = (home: string, args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, HOME: home, STALLGUARD_HOME: home },
    encoding: 'utf8',
    cwd: home,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('a day in shadow mode, reviewed in a terminal, then tuned', { skip }, () => {
  it("ends with interventions that agree with the verdicts on the person's own history, the floors intact", async () => {
    const home = tempHome();
    workDay(home);
    // the re-read nudges are wrong to this person, the failing loops right; one stray key, one look at
    // the help and one undo on the way
    const keys = ['x', '?', 'r', 'u', 'r'];
    const r = await reviewInTerminal(home, (shown) => {
      const key = keys.shift();
      if (key) return key;
      return /> call \d+ +Read src\/a\.ts/.test(shown) ? 'w' : 'r';
    });
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /10 interventions to review, newest first/);
    assert.match(r.out, /\(press r, w, s, u or q\)/);
    assert.match(r.out, /u +undo: back to the one before/);
    assert.match(r.out, /\(you said right before\)/);
    assert.match(r.out, /Given: 4 right, 6 wrong, 0 skipped\./);
    assert.doesNotMatch(r.out, /left for next time/);
    assert.equal(
      cli(home, ['review']).out.split('\n')[0],
      'All 10 interventions in 8 sessions in the ledger have a verdict (4 right, 6 wrong, 0 skipped).',
    );

    const tune = cli(home, ['tune', '--write']);
    assert.equal(tune.code, 0, tune.err);
    assert.match(tune.out, /^stallguard tune: 10 verdicts \(4 right, 6 wrong\)\./);
    // the re-reads fire by several signals at once: each is raised past what the re-reads reached
    const [, from, to] = /judge\.levels\.REREAD +(\d+) +(\d+) +\+6 \/ -0/.exec(tune.out) ?? [];
    assert.ok(Number(to) > Number(from), tune.out);
    assert.match(tune.out, /interventions that stay +4 +\(4 on stalls you marked right\)/);
    assert.match(tune.out, /interventions that go +6 +\(6 on stalls you marked wrong\)/);
    assert.match(tune.out, /interventions that appear +0/);
    assert.match(tune.out, /Your verdicts it agrees with: 4 of 10 now, 10 of 10 tuned\./);
    assert.match(tune.out, /Saved to .*tuned\.json \(user scope\)/);
    const layer = JSON.parse(readFileSync(join(home, 'tuned.json'), 'utf8')) as Record<string, unknown>;
    for (const floor of ['repeat', 'cycleRepeats', 'spawnCap', 'orchestrators', 'stopAfterRefusals', 'mode'])
      assert.ok(!(floor in layer), `${floor} is never tuned`);

    // tuned, on the next day's work: the same re-reads go unflagged, five identical calls still stall
    hookSession(home, 'next-reread', rereads(7), { config: null });
    const same = { tool: 'Bash', input: { command: 'make lint' }, output: 'lint: 3 problems', ok: true };
    hookSession(
      home,
      'next-repeat',
      Array.from({ length: 5 }, () => same),
      { config: null },
    );
    const status = JSON.parse(cli(home, ['status', '--json']).out) as {
      sessions: { id: string; stalls: number }[];
      tuned: { scope: string; verdicts: number; date: string }[];
    };
    const stalls = Object.fromEntries(status.sessions.map((s) => [s.id, s.stalls]));
    assert.equal(stalls['next-reread'], 0);
    assert.equal(stalls['next-repeat'], 1, 'the seed floor: the same call 5 times');
    assert.deepEqual(
      status.tuned.map((t) => [t.scope, t.verdicts]),
      [['user', 10]],
    );
    assert.match(
      cli(home, ['status']).out,
      new RegExp(
        `tuned \\(user scope\\) on \\d{4}-\\d\\d-\\d\\d from 10 verdicts: .*REREAD ${from} -> ${to}.*; undo: stallguard tune --reset`,
      ),
    );
    assert.match(cli(home, ['doctor']).out, /ok +config +tuned \(user scope\) on \d{4}-\d\d-\d\d from 10 verdicts/);

    const reset = cli(home, ['tune', '--reset']);
    assert.match(
      reset.out,
      /Removed .*tuned\.json \(tuned \d{4}-\d\d-\d\d from 10 verdicts\): the settings beneath it are back/,
    );
    assert.ok(!existsSync(join(home, 'tuned.json')));
    assert.doesNotMatch(cli(home, ['status']).out, /tuned/);
  });
});
