import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Decision, Event } from '../types.ts';
import { createDetector, type Detector } from './detector.ts';

const main = { id: 'main' };

/** One tool call of a text-adventure agent: open a door, see a room. */
function openDoor(d: Detector, session: string, door: string, room = 'a small grey room with doors A and B'): Decision[] {
  const call = { name: 'open_door', input: { door } };
  const pre = d.observe({ session, agent: main, kind: 'pre-tool', call });
  const post = d.observe({ session, agent: main, kind: 'post-tool', call, output: `You open door ${'AB'.includes(door) ? '' : door}and see ${room}.`, ok: true });
  return [pre, post];
}

/** Alternates doors A and B `rounds` times; the post-call decisions, in order. */
function wander(d: Detector, session: string, rounds: number): Decision[] {
  const out: Decision[] = [];
  for (let i = 0; i < rounds; i++) for (const door of ['A', 'B']) out.push(openDoor(d, session, door)[1]!);
  return out;
}

describe('createDetector', () => {
  it('nudges the agent that opens door A, then door B, and sees the same room each time; then stops it', () => {
    const d = createDetector();
    d.observe({ session: 's', agent: main, kind: 'prompt', prompt: 'find the exit' });
    const decisions = wander(d, 's', 10);
    const acted = decisions.map((x, i) => [i + 1, x.action] as const).filter(([, a]) => a !== 'allow');
    assert.deepEqual(acted, [[10, 'nudge'], [20, 'stop']]);
    assert.match(decisions[9]!.message!, /`open_door A` → `open_door B` x5 \(same results each round\)/);
    assert.equal(decisions[9]!.signals[0]!.code, 'CYCLE');
    assert.equal(decisions[19]!.stopReason, 'stall: `open_door A` → `open_door B` x5 (same results each round), twice in this task');
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
    const d = createDetector({ config: { cycleRepeats: 3 } });
    assert.equal(wander(d, 'one', 2).some((x) => x.action !== 'allow'), false);
    assert.equal(wander(d, 'two', 2).some((x) => x.action !== 'allow'), false);
    assert.equal(wander(d, 'one', 1).at(-1)!.action, 'nudge');
  });

  it('with file state, many detectors (as many processes) share one session log', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-lib-'));
    const a = createDetector({ state: { dir } });
    const b = createDetector({ state: { dir } });
    const decisions: Decision[] = [];
    for (let i = 0; i < 10; i++) decisions.push(openDoor(i % 2 ? a : b, 'shared', i % 2 ? 'B' : 'A')[1]!);
    assert.equal(decisions[9]!.action, 'nudge');
    assert.ok(existsSync(join(dir, 'sessions', 'shared.jsonl')));
    // a fresh detector on the same folder carries on where they left off
    const c = createDetector({ state: { dir } });
    const more = wander(c, 'shared', 5);
    assert.equal(more[9]!.action, 'stop');
  });

  it('names the problem with bad settings or a malformed event', () => {
    assert.throws(() => createDetector({ config: { repeat: 1 } }), /config\.repeat must be a whole number from 2 to 100/);
    const d = createDetector();
    assert.throws(() => d.observe({ kind: 'post-tool', agent: main } as unknown as Event), /session must be a non-empty string/);
    assert.throws(() => d.observe({ kind: 'tool', session: 's', agent: main } as unknown as Event), /kind must be one of/);
    assert.throws(() => d.observe({ kind: 'post-tool', session: 's', agent: main } as unknown as Event), /needs call/);
  });
});
