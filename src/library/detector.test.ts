import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decision, Event } from '../types.ts';
import { createDetector, type Detector } from './detector.ts';

const main = { id: 'main' };

/** One tool call of a text-adventure agent: open a door, see a room. */
function openDoor(
  d: Detector,
  session: string,
  door: string,
  room = 'a small grey room with doors A and B',
): Decision[] {
  const call = { name: 'open_door', input: { door } };
  const pre = d.observe({ session, agent: main, kind: 'pre-tool', call });
  const post = d.observe({
    session,
    agent: main,
    kind: 'post-tool',
    call,
    output: `You open door ${'AB'.includes(door) ? '' : door}and see ${room}.`,
    ok: true,
  });
  return [pre, post];
}

/**
 * Alternates doors A and B `rounds` times, as an agent loop does: a call the detector refuses is not run.
 * Every decision that is not `allow`, with the number of the attempt.
 */
function wander(d: Detector, session: string, rounds: number): [number, Decision][] {
  const out: [number, Decision][] = [];
  let attempt = 0;
  for (let i = 0; i < rounds; i++)
    for (const door of ['A', 'B']) {
      attempt++;
      const call = { name: 'open_door', input: { door } };
      const pre = d.observe({ session, agent: main, kind: 'pre-tool', call });
      if (pre.action !== 'allow') {
        out.push([attempt, pre]);
        continue;
      }
      const post = d.observe({
        session,
        agent: main,
        kind: 'post-tool',
        call,
        output: 'You open the door and see a small grey room with doors A and B.',
        ok: true,
      });
      if (post.action !== 'allow') out.push([attempt, post]);
    }
  return out;
}

describe('createDetector', () => {
  it('nudges the agent that opens door A, then door B, and sees the same room each time; then stops it', () => {
    const d = createDetector();
    d.observe({ session: 's', agent: main, kind: 'prompt', prompt: 'find the exit' });
    const acted = wander(d, 's', 15);
    const actions = acted.map(([, x]) => x.action);
    // five rounds of the same two calls with the same results are always a stall; the judge may see it sooner
    const [at, nudge] = acted[0]!;
    assert.equal(nudge.action, 'nudge');
    assert.ok(at <= 10, `nudged at attempt ${at}`);
    // named as the cycle it is, or as varied calls with the same answer (the third call may tell before a round does)
    const loop = [
      /`open_door [AB]` → `open_door [AB]` x\d \(same results each round\)/.source,
      /`open_door [AB]`, `open_door [AB]` \(\d similar calls, same result(?: each time)?\)/.source,
    ].join('|');
    assert.match(nudge.message!, new RegExp(loop));
    assert.ok(nudge.signals.some((x) => ['CYCLE', 'SAME_OUTCOME', 'NEAR_DUPLICATE'].includes(x.code)));
    // back in the same loop after the nudge: stopped at the second stall when it holds with a round fewer, else
    // nudged once more and stopped at the third; the calls right after a nudge that repeat the loop are refused
    const stop = actions.indexOf('stop');
    assert.ok(stop > 0, actions.join(' '));
    assert.match(actions.slice(0, stop).join(' '), /^nudge deny(?: nudge deny)?$/);
    assert.match(acted[stop]![1].stopReason!, new RegExp(`^stall: (?:${loop}), twice in this task( \\(.+\\))?$`));
    // stopped stays stopped in the task, as a repeat of the stop already issued
    const [pre] = openDoor(d, 's', 'C');
    assert.deepEqual([pre!.action, pre!.repeat], ['stop', true]);
    // a new prompt is a new task
    d.observe({ session: 's', agent: main, kind: 'prompt', prompt: 'try again' });
    assert.equal(openDoor(d, 's', 'A')[0]!.action, 'allow');
  });

  it('leaves an agent alone when the rooms change', () => {
    const d = createDetector();
    const rooms = Array.from({ length: 30 }, (_, i) => `room ${i}`);
    const actions = rooms.map((room, i) => openDoor(d, 's', i % 2 ? 'A' : 'B', room)[1]!.action);
    assert.deepEqual([...new Set(actions)], ['allow']);
  });

  it('keeps sessions apart, and takes settings', () => {
    // the seed rule alone, with a cycle repeated three times as the stall
    const d = createDetector({ config: { cycleRepeats: 3, judge: { enabled: false } } });
    assert.deepEqual(wander(d, 'one', 2), []);
    assert.deepEqual(wander(d, 'two', 2), []);
    assert.deepEqual(
      wander(d, 'one', 1).map(([n, x]) => [n, x.action]),
      [[2, 'nudge']],
    );
  });

  it('with file state, many detectors (as many processes) sharing one session log decide as one in memory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-lib-'));
    const detectors = [createDetector({ state: { dir } }), createDetector({ state: { dir } })];
    const memory = createDetector();
    for (let i = 0; i < 12; i++) {
      const door = i % 2 ? 'B' : 'A';
      assert.deepEqual(openDoor(detectors[i % 2]!, 'shared', door), openDoor(memory, 'shared', door), `call ${i + 1}`);
    }
    assert.ok(existsSync(join(dir, 'sessions', 'shared.jsonl')));
    // a fresh detector on the same folder carries on where they left off
    assert.deepEqual(openDoor(createDetector({ state: { dir } }), 'shared', 'A'), openDoor(memory, 'shared', 'A'));
  });

  it('names the problem with bad settings or a malformed event', () => {
    assert.throws(
      () => createDetector({ config: { repeat: 1 } }),
      /config\.repeat must be a whole number from 2 to 100/,
    );
    const d = createDetector();
    assert.throws(
      () => d.observe({ kind: 'post-tool', agent: main } as unknown as Event),
      /session must be a non-empty string/,
    );
    assert.throws(
      () => d.observe({ kind: 'tool', session: 's', agent: main } as unknown as Event),
      /kind must be one of/,
    );
    assert.throws(() => d.observe({ kind: 'post-tool', session: 's', agent: main } as unknown as Event), /needs call/);
  });
});
