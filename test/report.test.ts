import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hookSession, grep, npmTest, read } from './support/ledger.ts';
import { claudeTranscript, tempHome, write } from './support/histories.ts';
import { SEED_CWD } from './support/histories.ts';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

function report(args: string[], home: string) {
  const r = spawnSync(process.execPath, [CLI, 'report', ...args], {
    env: { PATH: process.env.PATH, HOME: home, STALLGUARD_HOME: home },
    encoding: 'utf8',
    cwd: SEED_CWD,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('stallguard report', () => {
  let home: string;
  before(() => {
    home = tempHome();
    // enforce: seven failing runs (nudged at the fifth), then a different call
    hookSession(
      home,
      'sess-enforce',
      [read('/home/dev/proj/a.js'), ...Array.from({ length: 7 }, npmTest), read('/home/dev/proj/b.js')],
      { mode: 'enforce' },
    );
    // shadow, another project: a search for a name that is not there, five times, then the agent moves on
    hookSession(
      home,
      'sess-shadow',
      [...Array.from({ length: 5 }, () => grep('handleInvoice')), read('/home/dev/web/src/x.ts')],
      { cwd: '/home/dev/web' },
    );
    hookSession(home, 'sess-healthy', [read('/home/dev/proj/a.js'), read('/home/dev/proj/b.js')]);
  });

  it('tabulates the ledger: per tool, signal and project, the top loops, and what the agent did after', () => {
    const r = report([], home);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /what stallguard decided \(ledger\)/);
    assert.match(r.out, /3 sessions, 17 tool calls; 2 sessions with stalls, 2 interventions\./);
    assert.match(r.out, /Stalls per tool\ntool +stalls +sessions +calls inside\n[─ ]+\nBash +1 +1 +7\nGrep +1 +1 +5/);
    assert.match(r.out, /Stalls per signal\n.*\n.*\nREPEAT +2 +2 +12/);
    assert.match(r.out, /Stalls per project\n.*\n.*\n(?:proj +1 +1 +7\nweb +1 +1 +5)/);
    assert.match(r.out, /`Bash npm test` x5 +1 +1 +7/);
    assert.match(r.out, /`Grep "handleInvoice" in src` x5 +1 +1 +5/);
    // the enforced nudge: the agent ran the tests twice more; the shadow one: it moved on to a Read
    assert.match(r.out, /nudge +enforce +1 +0 +1 +0/);
    assert.match(r.out, /nudge +shadow +1 +1 +0 +0/);
    assert.doesNotMatch(r.out, /tokens inside/, 'the ledger holds no token counts');
  });

  it("writes the patterns worth putting into the agent's instructions", () => {
    const r = report(['--learnings'], home);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /From the ledger: 3 sessions, 2 with stalls\./);
    assert.match(r.out, /## Tools that loop\n\n- Bash: 1 stall in 1 session\n- Grep: 1 stall in 1 session/);
    assert.match(r.out, /- `Bash npm test` ran 7 times in 1 session, failing every time with the same failure\n/);
    assert.match(r.out, /- `Grep "handleInvoice" in src` ran 5 times in 1 session\n/);
    assert.match(
      r.out,
      /## Worth writing into CLAUDE\.md \/ AGENTS\.md\n\n- After a failing test run, read the failure/,
    );
    assert.match(r.out, /When a search finds nothing twice/);
  });

  it('reports a scan of history with the tokens and cost inside the stalls', () => {
    const history = tempHome();
    write(join(history, 'p', 's1.jsonl'), claudeTranscript('s1'));
    const r = report(['--scan', history], home);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /\(scan\)/);
    assert.match(r.out, /Inside stalls: 6 calls \(85\.7%\), \$0\.1\d \(8\d\.\d% of the cost\)\./);
    assert.match(r.out, /tool +stalls +sessions +calls inside +tokens inside +cost inside/);
    assert.match(r.out, /then changed approach/);
  });

  it('writes one page, and says where', () => {
    const file = join(tempHome(), 'report.html');
    const r = report(['--html', file], home);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `Wrote ${file}: 3 sessions, 2 stalls.\n`);
    const html = readFileSync(file, 'utf8');
    assert.match(html, /^<!doctype html>/);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
    assert.doesNotMatch(html, /(?:src|href)=["']?(?:https?:)?\/\//, 'nothing to fetch');
  });

  it('answers bad input with one line and exit 2', () => {
    for (const [args, message] of [
      [['somewhere'], 'stallguard report: paths are read with --scan (got "somewhere")'],
      [['--learnings', '--scan'], 'stallguard report: --learnings reads the ledger; it does not combine with --scan'],
      [['--html'], "stallguard report: Option '--html <value>' argument missing"],
      [['--scan', '/no/such/dir'], 'stallguard report: /no/such/dir: no such file or folder'],
    ] as [string[], string][]) {
      const r = report(args, home);
      assert.equal(r.code, 2, args.join(' '));
      assert.equal(r.err.trim(), message);
    }
  });

  it('says how to start when the ledger is empty', () => {
    const r = report([], tempHome());
    assert.equal(r.code, 0);
    assert.match(r.out, /No sessions in the ledger yet/);
  });
});
