import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { SEED_RULE } from '../../test/support/config.ts';
import { configOf } from '../../test/support/config.ts';
import { claudeTranscript, tempHome, write } from '../../test/support/histories.ts';
import { hookSession, npmTest, read } from '../../test/support/ledger.ts';
import { sessionFile } from '../store/paths.ts';
import { historyRun, ledgerRun } from './collect.ts';
import { reviewItems } from './items.ts';
import { replayRun, stallsOf } from './run.ts';

describe('the stalls review asks about', () => {
  it("says where a stall is so that the same session read from the agent's transcript finds it again", () => {
    const home = tempHome();
    // the hook saw these calls live; Claude Code wrote the same calls to its transcript
    hookSession(home, 's1', [read('/home/dev/proj/test/invoice.test.js'), ...Array.from({ length: 6 }, npmTest)]);
    const ledger = ledgerRun(sessionFile(home, 's1'));
    const transcript = historyRun(write(join(tempHome(), 'p', 's1.jsonl'), claudeTranscript('s1')))!;
    const live = reviewItems(ledger, ledger.recorded!);
    const replayed = reviewItems(transcript, replayRun(transcript, configOf(SEED_RULE)));
    assert.equal(live.length, 1);
    assert.deepEqual(
      replayed.map((i) => i.id),
      live.map((i) => i.id),
    );
    assert.deepEqual([live[0]!.record.call, live[0]!.record.nth, live[0]!.record.agent], ['Bash npm test', 5, 'main']);
  });

  it('knows the loop, the flagged call and the calls that went on repeating it', () => {
    const home = tempHome();
    hookSession(home, 's2', [
      read('/home/dev/proj/a.js'),
      ...Array.from({ length: 7 }, npmTest),
      read('/home/dev/proj/b.js'),
    ]);
    const run = ledgerRun(sessionFile(home, 's2'));
    const [stall] = stallsOf(run, run.recorded!);
    assert.ok(stall);
    assert.deepEqual(
      [stall.step, stall.span, stall.more, stall.loop, stall.calls],
      [5, 5, 2, '`Bash npm test` x5', ['Bash npm test']],
    );
    const [item] = reviewItems(run, run.recorded!);
    const parts = item!.calls.map(
      (c) => `${c.step + 1}:${c.part}${c.sameAs !== undefined ? `=${c.sameAs + 1}` : ''}${c.flagged ? '!' : ''}`,
    );
    assert.deepEqual(parts, [
      '1:before',
      '2:loop',
      '3:loop=2',
      '4:loop=2',
      '5:loop=2',
      '6:loop=2!',
      '7:after=2',
      '8:after=2',
      '9:after',
    ]);
    assert.equal(item!.mode, 'shadow');
    assert.match(item!.message!, /`Bash npm test` x5/);
    assert.deepEqual(item!.then, { calls: 0, next: 'end' });
  });
});
