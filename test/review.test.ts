import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { claudeTranscript, tempHome, write } from './support/histories.ts';
import { LOOP_SESSIONS, REREAD_SESSIONS, workDay } from './support/day.ts';
import { hookSession, npmTest } from './support/ledger.ts';
import { CLI } from './support/hook-process.ts';

// stallguard review as a person or a script runs it: answers from a pipe (a terminal is driven in
// review-pty.test.ts), verdicts kept privately and without outputs, asked once.

function review(home: string, args: string[] = [], input = '') {
  const r = spawnSync(process.execPath, [CLI, 'review', ...args], {
    input,
    env: { PATH: process.env.PATH, HOME: home, STALLGUARD_HOME: home },
    encoding: 'utf8',
    cwd: home,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}
const items = (home: string) =>
  review(home, ['--json'])
    .out.split('\n')
    .filter(Boolean)
    .map(
      (l) =>
        JSON.parse(l) as {
          id: string;
          session: string;
          action: string;
          verdict: string | null;
          calls: { short: string; part: string }[];
          message: string;
        },
    );
const verdictLines = (home: string) =>
  readFileSync(join(home, 'verdicts.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('stallguard review', () => {
  it('lists the interventions newest first with --json, each with its context, its message and no verdict yet', () => {
    const home = tempHome();
    workDay(home);
    const list = items(home);
    assert.equal(list.length, 10, 'six re-read nudges, and a nudge and a stop in each of the two failing loops');
    assert.deepEqual(
      [...new Set(list.map((i) => i.session))],
      [...LOOP_SESSIONS].reverse().concat([...REREAD_SESSIONS].reverse()),
    );
    assert.ok(list.every((i) => i.verdict === null));
    const reread = list.find((i) => i.session === 'reread-1')!;
    assert.equal(reread.action, 'nudge');
    const loop = reread.calls.filter((c) => c.part === 'loop').map((c) => c.short);
    assert.ok(loop.length >= 3 && loop.every((c) => c === 'Read src/a.ts'), loop.join(', '));
    assert.match(reread.message, /Read src\/a\.ts/);
  });

  it('asks one at a time, keeps each answer at once, and asks nothing twice', () => {
    const home = tempHome();
    workDay(home);
    // a key that means nothing is asked again; q stops with the rest left for next time
    let r = review(home, [], 'r\nx\nw\nq\n');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^10 interventions to review, newest first \(from 8 sessions in the ledger\)/);
    assert.match(r.out, /\[1\/10\] stop \(shadow\) · claude · proj · .* · session loop-2 \(main agent\)/);
    assert.match(r.out, /> call 7 +Bash npm test +failed +same as call 3 +<- stopped here/);
    assert.match(
      r.out,
      /stallguard would have stopped the agent for you \(shadow mode\):\n    stall: `Bash npm test` x6/,
    );
    assert.match(r.out, /stallguard would have told the agent \(shadow mode\):/);
    assert.match(r.out, /\(press r, w, s, u or q\)/);
    assert.match(r.out, /Given: 1 right, 1 wrong, 0 skipped; 8 left for next time/);
    const file = join(home, 'verdicts.jsonl');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(
      verdictLines(home).map((v) => v.verdict),
      ['right', 'wrong'],
    );
    // next time: from the third on
    r = review(home, [], 's\n');
    assert.match(r.out, /^8 interventions to review/);
    assert.match(r.out, /\[1\/8\] stop \(shadow\) · claude · proj · .* · session loop-1/);
    assert.match(r.out, /Given: 0 right, 0 wrong, 1 skipped; 7 left for next time/);
    assert.equal(items(home).filter((i) => i.verdict !== null).length, 3);
  });

  it('undoes: u goes back one, and the new answer replaces the old', () => {
    const home = tempHome();
    workDay(home);
    const r = review(home, [], 'w\nu\nr\nq\n');
    assert.match(r.out, /\(you said wrong before\)/);
    assert.equal(items(home)[0]!.verdict, 'right');
    assert.match(review(home, ['--again'], 'q\n').out, /^10 interventions to review/);
  });

  it('says when everything has a verdict, and what to run next', () => {
    const home = tempHome();
    workDay(home);
    review(home, [], 'r\n'.repeat(10));
    const r = review(home);
    assert.match(
      r.out,
      /All 10 interventions in 8 sessions in the ledger have a verdict \(10 right, 0 wrong, 0 skipped\)\.\nstallguard tune shows what they would change/,
    );
  });

  it('keeps short forms and counts, never an output; a secret in a command is redacted as in the ledger', () => {
    const home = tempHome();
    const secret = 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const curl = {
      tool: 'Bash',
      input: { command: `curl -H "Authorization: Bearer ${secret}" https://api.example.com/v1/status` },
      output: 'HTTP/1.1 503 the-output-text',
      ok: false,
    };
    hookSession(
      home,
      'sess-secret',
      Array.from({ length: 5 }, () => curl),
    );
    hookSession(home, 'sess-tests', Array.from({ length: 5 }, npmTest));
    review(home, [], 'w\nr\n');
    const text = readFileSync(join(home, 'verdicts.jsonl'), 'utf8');
    assert.equal(verdictLines(home).length, 2);
    assert.doesNotMatch(text, new RegExp(secret.slice(8)));
    assert.doesNotMatch(text, /the-output-text|1 passed, 1 failed/);
    assert.match(text, /"call":"Bash curl -H \\"Authorization: <redacted>\\"/);
  });

  it('records verdicts for scripts with --mark, and refuses what it cannot do in one line', () => {
    const home = tempHome();
    workDay(home);
    const [first] = items(home);
    let r = review(home, ['--mark', `${first!.id.slice(0, 6)}=wrong`]);
    assert.equal(r.code, 0, r.err);
    assert.equal(items(home)[0]!.verdict, 'wrong');
    r = review(home, ['--mark', 'ffffffffffff=right']);
    assert.equal(r.code, 2);
    assert.match(
      r.err,
      /^stallguard review: no intervention with id "ffffffffffff" \(stallguard review --json lists them/,
    );
    r = review(home, ['--mark', `${first!.id}=maybe`]);
    assert.equal(r.code, 2);
    assert.equal(r.err.trim().split('\n').length, 1);
    assert.match(review(home, ['somewhere']).err, /paths are read with --scan/);
  });

  it("with --scan, asks about what stallguard would have done in the agents' history too, once per stall", () => {
    const home = tempHome();
    const history = join(home, '.claude', 'projects', 'p');
    write(join(history, 's-history.jsonl'), claudeTranscript('s-history', { repeats: 6 }));
    // watched live as well: the ledger's decision is the one asked about
    hookSession(home, 's-live', [
      { tool: 'Read', input: { file_path: '/home/dev/proj/test/invoice.test.js' }, output: 'test(...)', ok: true },
      ...Array.from({ length: 6 }, npmTest),
    ]);
    write(join(history, 's-live.jsonl'), claudeTranscript('s-live', { repeats: 6 }));
    const r = review(home, ['--scan', '--json']);
    const found = r.out
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { session: string; source: string });
    assert.deepEqual(found.map((i) => `${i.session}:${i.source}`).sort(), ['s-history:scan', 's-live:ledger']);
    assert.match(review(home, ['--json']).out, /s-live/);
    assert.doesNotMatch(review(home, ['--json']).out, /s-history/);
  });

  it('with nothing to review, says how to get something', () => {
    const home = tempHome();
    const r = review(home);
    assert.equal(r.code, 0);
    assert.match(r.out, /Nothing to review: the ledger holds no session yet .* stallguard review --scan/);
  });
});
