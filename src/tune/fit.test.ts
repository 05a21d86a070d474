import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SignalCode } from '../types.ts';
import { DEFAULT_CONFIG } from '../config/defaults.ts';
import { SHIPPED_MODEL } from '../engine/find-stall.ts';
import { baseOf, emptySummary, type Summary } from './evidence.ts';
import { agreement, type Case, fit } from './fit.ts';
import { changes, get, type Knob, KNOBS, ladder, type Level, MAX_STEPS, settingsOf, shown } from './settings.ts';

// The fit on verdicts given as summaries of their stretches (the values each signal reached there), so that
// each example reads as the evidence a person's verdicts make. The shipped judge is refitted as detection
// improves: the examples are built on whatever levels it has.

const shipped = settingsOf(DEFAULT_CONFIG);
const base = baseOf(DEFAULT_CONFIG);
const knob = (code: SignalCode) => KNOBS.find((k) => k.kind === 'level' && k.code === code)!;
/** The value `n` steps up a setting's ladder from the shipped one. */
const up = (k: Knob, n: number): Level => {
  const l = ladder(k, get(shipped, k));
  return l[l.indexOf(get(shipped, k)) + n]!;
};

function stretch(judged: Partial<Record<SignalCode, number>>, floors: Partial<Omit<Summary, 'judged'>> = {}): Summary {
  return { ...emptySummary(), judged, ...floors };
}
const wrong = (s: Summary, n = 1): Case[] => Array.from({ length: n }, () => ({ answer: 'wrong', summary: s }));
const right = (s: Summary, n = 1): Case[] => Array.from({ length: n }, () => ({ answer: 'right', summary: s }));
const tuned = (cases: Case[], fixed: string[] = [], judge = true) =>
  fit({ cases, prior: shipped, shipped, fixed: new Set(fixed), base: { ...base, judge } });
const moved = (s: ReturnType<typeof tuned>) =>
  changes(shipped, s).map(([k, a, b]) => `${k.name} ${shown(a)}->${shown(b)}`);

const REREAD = knob('REREAD');
const level = shipped.levels.REREAD!;
// re-reads of a file the agent had read, as many as the shipped judge's level: a stall by REREAD alone
const rereads = stretch({ REREAD: level });
// a stall three signals fire on at once (as four identical reads are a repeat, a near-duplicate and a re-read)
const three = KNOBS.filter(
  (k): k is Knob & { kind: 'level' } => k.kind === 'level' && k.code !== 'REPEAT' && shipped.levels[k.code] !== null,
).slice(0, 3);
const together = stretch(Object.fromEntries(three.map((k) => [k.code, shipped.levels[k.code]!])));

describe('tune fits the settings to the verdicts, near the shipped ones', () => {
  it('starts from the shipped judge: its levels, none for the signals it leaves out, and the default floors', () => {
    for (const k of KNOBS)
      if (k.kind === 'level')
        assert.equal(
          shipped.levels[k.code],
          SHIPPED_MODEL[k.code] ? SHIPPED_MODEL[k.code]!.hinges[0]!.knot + 1 : null,
          k.code,
        );
    assert.equal(shipped.floors.failRepeat, DEFAULT_CONFIG.failRepeat);
    assert.equal(three.length, 3, 'the shipped judge weighs at least three signals besides REPEAT');
  });

  it('one verdict alone moves nothing', () => {
    assert.deepEqual(moved(tuned(wrong(rereads))), []);
  });

  it('two verdicts that agree move a setting one step', () => {
    assert.deepEqual(moved(tuned(wrong(rereads, 2))), [`judge.levels.REREAD ${level}->${shown(up(REREAD, 1))}`]);
  });

  it('moves the settings a stall fires by together, when enough verdicts ask for it', () => {
    // one step each: 1 + 1 + 1 of cost, for as many verdicts as agree
    assert.deepEqual(moved(tuned(wrong(together, 3))), [], 'three verdicts are not more than what three steps cost');
    assert.deepEqual(
      moved(tuned(wrong(together, 4))),
      three.map((k) => `${k.name} ${shown(get(shipped, k))}->${shown(up(k, 1))}`),
    );
  });

  it('verdicts that disagree cancel out; stalls marked right hold a level where they are', () => {
    assert.deepEqual(moved(tuned([...wrong(rereads, 3), ...right(rereads, 3)])), []);
    // stalls marked right one step further up keep it from going past them
    const further = stretch({ REREAD: up(REREAD, 1) as number });
    assert.deepEqual(moved(tuned([...wrong(rereads, 4), ...wrong(further, 4), ...right(further, 5)])), [
      `judge.levels.REREAD ${level}->${shown(up(REREAD, 1))}`,
    ]);
  });

  it('never moves a setting more than MAX_STEPS from the shipped value, and switches no signal off', () => {
    const within = (s: ReturnType<typeof tuned>) => {
      for (const k of KNOBS) {
        const l = ladder(k, get(shipped, k));
        assert.ok(
          Math.abs(l.indexOf(get(s, k)) - l.indexOf(get(shipped, k))) <= MAX_STEPS,
          `${k.name}: ${shown(get(shipped, k))} -> ${shown(get(s, k))}`,
        );
        if (get(shipped, k) !== null) assert.notEqual(get(s, k), null, `${k.name} switched off`);
      }
    };
    // however many verdicts ask, what only a level further than that would silence stays flagged
    const far = stretch({ REREAD: 1000 });
    within(tuned(wrong(far, 500)));
    assert.deepEqual(moved(tuned(wrong(far, 500))), []);
    const top = up(REREAD, MAX_STEPS);
    if (typeof top === 'number') {
      const near = stretch({ REREAD: (up(REREAD, MAX_STEPS - 1) as number) ?? level });
      assert.deepEqual(moved(tuned(wrong(near, 500))), [`judge.levels.REREAD ${level}->${top}`]);
    }
    within(
      tuned(
        wrong(
          stretch(Object.fromEntries(KNOBS.flatMap((k) => (k.kind === 'level' ? [[k.code, 12]] : []))), {
            sameFailure: 12,
            failingRetry: 12,
            noTreeChange: 12,
            poll: 40,
          }),
          500,
        ),
      ),
    );
  });

  it('a stall the seed floor makes (the same call 5 times) moves nothing: tune never touches that floor', () => {
    const seed = stretch({ REPEAT: DEFAULT_CONFIG.repeat }, { repeat: DEFAULT_CONFIG.repeat });
    assert.deepEqual(moved(tuned(wrong(seed, 50))), []);
    assert.equal(agreement(wrong(seed), tuned(wrong(seed, 50)), base), 0);
  });

  it('leaves a setting set by hand in a file above the layer as it is', () => {
    assert.deepEqual(moved(tuned(wrong(rereads, 5), ['judge.levels.REREAD'])), []);
  });

  it('with the judge off, tunes the floors alone', () => {
    const retries = stretch({}, { failingRetry: DEFAULT_CONFIG.failRepeat });
    assert.deepEqual(moved(tuned(wrong(retries, 3), [], false)), [
      `failRepeat ${DEFAULT_CONFIG.failRepeat}->${shown(up(KNOBS.find((k) => k.name === 'failRepeat')!, 1))}`,
    ]);
    assert.deepEqual(moved(tuned(wrong(rereads, 5), [], false)), []);
  });

  it('brings in a signal the shipped judge leaves out, when stalls marked right are caught only by it', (t) => {
    const off = KNOBS.find((k): k is Knob & { kind: 'level' } => k.kind === 'level' && shipped.levels[k.code] === null);
    if (!off) return t.skip('the shipped judge weighs every signal');
    const lowest = up(off, -1) as number;
    assert.deepEqual(moved(tuned(right(stretch({ [off.code]: lowest }), 2))), [`${off.name} none->${lowest}`]);
  });
});
