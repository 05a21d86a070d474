import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SignalCode } from '../types.ts';
import { DEFAULT_CONFIG } from '../config/defaults.ts';
import { baseOf, emptySummary, type Summary } from './evidence.ts';
import { agreement, type Case, fit } from './fit.ts';
import { changes, get, KNOBS, ladder, MAX_STEPS, settingsOf, shown } from './settings.ts';

// The fit on verdicts given as summaries of their stretches (the values each signal reached there), so that
// each example reads as the evidence a person's verdicts make.

const shipped = settingsOf(DEFAULT_CONFIG);
const base = baseOf(DEFAULT_CONFIG);

function stretch(judged: Partial<Record<SignalCode, number>>, floors: Partial<Omit<Summary, 'judged'>> = {}): Summary {
  return { ...emptySummary(), judged, ...floors };
}
const wrong = (s: Summary, n = 1): Case[] => Array.from({ length: n }, () => ({ answer: 'wrong', summary: s }));
const right = (s: Summary, n = 1): Case[] => Array.from({ length: n }, () => ({ answer: 'right', summary: s }));
const tuned = (cases: Case[], fixed: string[] = [], judge = true) => fit({ cases, prior: shipped, shipped, fixed: new Set(fixed), base: { ...base, judge } });
const moved = (s: ReturnType<typeof tuned>) => changes(shipped, s).map(([k, a, b]) => `${k.name} ${shown(a)}->${shown(b)}`);

// three re-reads of a file the agent had read: the shipped judge's REREAD level is 3
const rereads = stretch({ REREAD: 3 });
// four identical reads in a row: a repeat, a near-duplicate and a re-read all at 4
const fourReads = stretch({ REREAD: 4, REPEAT: 4, NEAR_DUPLICATE: 4 }, { repeat: 4 });

describe('tune fits the settings to the verdicts, near the shipped ones', () => {
  it('starts from the shipped judge: the levels it has, none for the signals it leaves out', () => {
    assert.equal(shipped.levels.REREAD, 3);
    assert.equal(shipped.levels.CYCLE, null);
    assert.equal(shipped.floors.failRepeat, 4);
  });

  it('one verdict alone moves nothing', () => {
    assert.deepEqual(moved(tuned(wrong(rereads))), []);
  });

  it('two verdicts that agree move a setting one step', () => {
    assert.deepEqual(moved(tuned(wrong(rereads, 2))), ['judge.levels.REREAD 3->4']);
  });

  it('moves the settings a stall fires by together, when enough verdicts ask for it', () => {
    // silencing four identical reads takes REREAD 3->5, REPEAT 4->5 and NEAR_DUPLICATE 4->5: 3 + 1 + 1 of cost
    assert.deepEqual(moved(tuned(wrong(fourReads, 3))), [], 'three verdicts do not pay for five steps');
    assert.deepEqual(moved(tuned(wrong(fourReads, 6))), ['judge.levels.REPEAT 4->5', 'judge.levels.NEAR_DUPLICATE 4->5', 'judge.levels.REREAD 3->5']);
  });

  it('verdicts that disagree cancel out: stalls marked right keep their level', () => {
    assert.deepEqual(moved(tuned([...wrong(rereads, 3), ...right(rereads, 3)])), []);
    // a level raised past the right ones would lose them
    const higher = stretch({ REREAD: 4 });
    assert.deepEqual(moved(tuned([...wrong(rereads, 4), ...right(higher, 4)])), ['judge.levels.REREAD 3->4']);
  });

  it('never moves a setting more than MAX_STEPS from the shipped value, however many verdicts', () => {
    const within = (s: ReturnType<typeof tuned>) => {
      for (const k of KNOBS) {
        const l = ladder(k, get(shipped, k));
        assert.ok(Math.abs(l.indexOf(get(s, k)) - l.indexOf(get(shipped, k))) <= MAX_STEPS, `${k.name}: ${shown(get(shipped, k))} -> ${shown(get(s, k))}`);
      }
    };
    // REREAD's ladder is 2 3 4 5 6 8 ...: three steps up from 3 is 6
    const five = tuned(wrong(stretch({ REREAD: 5 }), 500));
    within(five);
    assert.deepEqual(moved(five), ['judge.levels.REREAD 3->6']);
    // what only a level of 8 would silence stays flagged, and nothing moves for it
    assert.deepEqual(moved(tuned(wrong(stretch({ REREAD: 7 }), 500))), []);
    within(tuned(wrong(stretch({ REREAD: 12, SAME_FAILURE: 12, EDIT_REJECTED: 12, SAME_OUTCOME: 12 }, { sameFailure: 12, failingRetry: 12 }), 500)));
  });

  it('a stall the seed floor makes (the same call 5 times) moves nothing: tune never touches that floor', () => {
    const seed = stretch({ REPEAT: 5, NEAR_DUPLICATE: 5 }, { repeat: 5 });
    assert.deepEqual(moved(tuned(wrong(seed, 50))), []);
    assert.equal(agreement(wrong(seed), tuned(wrong(seed, 50)), base), 0);
  });

  it('leaves a setting set by hand in a file above the layer as it is', () => {
    assert.deepEqual(moved(tuned(wrong(rereads, 5), ['judge.levels.REREAD'])), []);
  });

  it('with the judge off, tunes the floors alone', () => {
    const retries = stretch({ FAILING_RETRY: 4 }, { failingRetry: 4 });
    assert.deepEqual(moved(tuned(wrong(retries, 3), [], false)), ['failRepeat 4->5']);
    assert.deepEqual(moved(tuned(wrong(rereads, 5), [], false)), []);
  });

  it('brings in a signal the shipped judge leaves out, when stalls marked right are caught only by it', () => {
    // a cycle going round 12 times is no floor's (cycles need 5 rounds of period 2-5, here it is 12 of a longer one)
    const cycles = stretch({ CYCLE: 12 });
    assert.deepEqual(moved(tuned(right(cycles, 2))), ['judge.levels.CYCLE none->12']);
  });
});
