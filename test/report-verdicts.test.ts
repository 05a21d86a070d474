import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeTranscript, SEED_CWD, tempHome, write } from './support/histories.ts';
import { grep, hookSession, npmTest, read } from './support/ledger.ts';
import { CLI } from './support/hook-process.ts';

// What the report makes of the person's verdicts: the page rings the stalls they marked, and a pattern
// they marked wrong is no learning.

const cli = (home: string, args: string[]) => {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, HOME: home, STALLGUARD_HOME: home },
    encoding: 'utf8',
    cwd: SEED_CWD,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
};

describe('the report with verdicts', () => {
  let home: string;
  before(() => {
    home = tempHome();
    hookSession(home, 'sess-tests', [read('/home/dev/proj/a.js'), ...Array.from({ length: 7 }, npmTest)]);
    hookSession(
      home,
      'sess-search',
      [...Array.from({ length: 5 }, () => grep('handleInvoice')), read('/home/dev/web/src/x.ts')],
      { cwd: '/home/dev/web' },
    );
    write(join(home, '.claude', 'projects', 'p', 'sess-history.jsonl'), claudeTranscript('sess-history'));
    const listed = cli(home, ['review', '--scan', '--json'])
      .out.split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; session: string });
    const mark = (session: string, answer: string) => [
      '--mark',
      `${listed.find((i) => i.session === session)!.id}=${answer}`,
    ];
    assert.equal(
      cli(home, [
        'review',
        '--scan',
        ...mark('sess-tests', 'right'),
        ...mark('sess-search', 'wrong'),
        ...mark('sess-history', 'wrong'),
      ]).code,
      0,
    );
  });

  it('rings the stalls with a verdict on the page, and says what they were marked', () => {
    const page = join(tempHome(), 'ledger.html');
    assert.equal(cli(home, ['report', '--html', page]).code, 0);
    const html = readFileSync(page, 'utf8');
    assert.match(html, /<circle class="verdict right"/);
    assert.match(html, /<circle class="verdict wrong"/);
    assert.match(html, /class="marker nudge verdict-wrong"/);
    assert.match(html, /Grep &#34;handleInvoice&#34; in src x5 \[[A-Z_, ]+\].*; you marked it wrong<\/title>/);
    assert.match(html, /<b>1 right, 1 wrong<\/b>your verdicts/);
    const scanned = join(tempHome(), 'scan.html');
    assert.equal(cli(home, ['report', '--scan', join(home, '.claude', 'projects'), '--html', scanned]).code, 0);
    assert.match(readFileSync(scanned, 'utf8'), /<b>0 right, 1 wrong<\/b>your verdicts/);
  });

  it('leaves a pattern marked wrong out of the learnings, and says so', () => {
    const r = cli(home, ['report', '--learnings']);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /## Tools that loop\n\n- Bash: 1 stall in 1 session \(1 marked right by you\)\n\n/);
    assert.doesNotMatch(r.out, /- Grep:|`Grep "handleInvoice" in src` ran|When a search finds nothing twice/);
    assert.match(r.out, /- `Bash npm test` ran 7 times in 1 session, failing every time with the same failure/);
    // `Bash npm test` was marked wrong in the history's session too, but right here: it stays a learning
    assert.match(
      r.out,
      /\n\nLeft out, from your verdicts in stallguard review: 1 stall you marked wrong, and the calls of their loops \(`Grep "handleInvoice" in src`\)\.\n$/,
    );
  });
});
