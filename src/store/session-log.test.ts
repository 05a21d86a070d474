import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Event, Observation } from '../types.ts';
import { DEFAULT_CONFIG } from '../config/defaults.ts';
import { observation } from '../engine/step.ts';
import { initialState } from '../engine/state.ts';
import { CHECKPOINT_EVERY, foldThrough, type LogLine, parseLine } from './session-log.ts';
import { observeInLog } from './segments.ts';

// The session log is shared by every hook process of a session, and any of them can die at any point of
// its write. These tests put the file in the states such deaths leave behind and check that the calls
// that come after are decided exactly as if nothing had happened.

const CWD = '/home/dev/proj';
const ctx = { cwd: CWD, home: '/home/dev', stallguardHome: '/home/dev/.stallguard' };
const meta = { t: 'm' as const, session: 's1', agent: 'claude' as const, time: 1 };

/** An event without the fields every event of the scenario shares. */
type Bare = { [K in Event['kind']]: Omit<Extract<Event, { kind: K }>, 'session' | 'time'> }[Event['kind']];

function obs(event: Bare): Observation {
  return observation({ session: 's1', time: 1_700_000_000_000, ...event } as Event, ctx);
}

/**
 * Four tasks long enough to pass checkpoints: in each, main fails `npm test` again and again while a subagent reads.
 */
function scenario(): Observation[] {
  const out: Observation[] = [];
  const test = { name: 'Bash', input: { command: 'npm test' } };
  for (let t = 0; t < 4; t++) {
    out.push(obs({ kind: 'prompt', agent: { id: 'main' }, prompt: 'fix it', task: `p${t}` }));
    for (let i = 0; i < 7; i++) {
      out.push(obs({ kind: 'pre-tool', agent: { id: 'main' }, task: `p${t}`, call: test }));
      out.push(
        obs({
          kind: 'post-tool',
          agent: { id: 'main' },
          task: `p${t}`,
          call: test,
          output: `Exit code 1\n1 passed, 1 failed`,
          ok: false,
        }),
      );
      out.push(
        obs({
          kind: 'post-tool',
          agent: { id: 'a1', type: 'Explore' },
          call: { name: 'Read', input: { file_path: `${CWD}/f${i % 4}.ts` } },
          output: `c${i % 4}`,
          ok: true,
        }),
      );
      if (i % 2) out.push(obs({ kind: 'batch-end', agent: { id: 'main' }, task: `p${t}` }));
    }
  }
  return out;
}

function scratchFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'sg-log-')), 'sessions', 's1.jsonl');
}

function run(file: string, list: Observation[], before?: (i: number) => void): string[] {
  return list.map((o, i) => {
    before?.(i);
    const d = observeInLog(file, o, DEFAULT_CONFIG, meta).decision;
    return d.code ?? d.action;
  });
}

const REFERENCE = (() => run(scratchFile(), scenario()))();

describe('parseLine', () => {
  const whole: LogLine = { t: 'o', id: 'abc', o: scenario()[1]! };
  const text = JSON.stringify(whole);
  const cases: [string, string, LogLine | undefined][] = [
    ['a whole line', text, whole],
    ['a fragment, then the line appended after it', text.slice(0, 17) + text, whole],
    ['two fragments, then a whole line', text.slice(0, 30) + '{"t":"c","after":"x","s":{"v":1,"ta' + text, whole],
    [
      'a fragment cut inside a multi-byte character',
      Buffer.from('{"t":"o","id":"é', 'utf8').subarray(0, 16).toString('utf8') + text,
      whole,
    ],
    ['a fragment alone', text.slice(0, 40), undefined],
    ['binary garbage', '\u0000\u00ff\ufffd{"t', undefined],
    ['a JSON value that is no line', '[1,2,3]', undefined],
  ];
  for (const [name, input, expected] of cases) it(name, () => assert.deepEqual(parseLine(input), expected));
});

describe('a session log damaged by a writer that died', () => {
  it('decides every later call as if the dead writer had never run, wherever its write was cut', () => {
    const list = scenario();
    assert.ok(list.length > 2 * CHECKPOINT_EVERY, 'the scenario passes checkpoints');
    fc.assert(
      fc.property(
        fc.nat(list.length - 1),
        fc.boolean(),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        (at, checkpoint, cutAt) => {
          const file = scratchFile();
          const decisions = run(file, list, (i) => {
            if (i !== at || i === 0) return;
            // the dead writer's own line: an observation, or a checkpoint (the largest lines in the file)
            const full = checkpoint
              ? JSON.stringify({ t: 'c', after: 'zzzz', s: foldThrough(file, lastId(file), DEFAULT_CONFIG).state })
              : JSON.stringify({ t: 'o', id: 'dead00', o: list[i] });
            // any strict prefix: the write stopped before its last byte, the newline
            appendFileSync(file, full.slice(0, 1 + Math.floor(cutAt * (full.length - 2))));
          });
          assert.deepEqual(decisions, REFERENCE);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('folds past lines that are not JSON, not a line, or a checkpoint that holds no state', () => {
    const file = scratchFile();
    const list = scenario();
    const decisions = run(file, list, (i) => {
      if (i === 5) appendFileSync(file, '\u0000\u0001 not json\n');
      if (i === 9) appendFileSync(file, '[1,2]\n{"t":"o","id":"x"}\n{"t":"o","id":"y","o":{"step":"nope"}}\n');
      if (i === 12)
        appendFileSync(file, JSON.stringify({ t: 'c', after: lastId(file), s: { v: 2, broken: true } }) + '\n');
    });
    assert.deepEqual(decisions, REFERENCE);
  });

  it('starts afresh from a file that holds nothing usable', () => {
    const file = scratchFile();
    run(file, [scenario()[0]!]);
    writeFileSync(file, Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a, 0x7b]));
    const list = scenario().slice(1, 20);
    assert.deepEqual(run(file, list), run(scratchFile(), list));
  });

  it('never uses a checkpoint written after a later line than the one being decided', () => {
    const file = scratchFile();
    run(file, scenario().slice(0, 3));
    const id = lastId(file);
    // a checkpoint that claims far more calls than there were, placed as a racing process would place it
    const inflated = { ...initialState(), totals: { calls: 999, stalls: 0, refusals: 0 } };
    appendFileSync(file, JSON.stringify({ t: 'c', after: 'not-yet-written', s: inflated }) + '\n');
    assert.equal(foldThrough(file, id, DEFAULT_CONFIG).state.totals.calls, 1);
  });
});

function lastId(file: string): string {
  const lines = readFileSync(file, 'utf8').split('\n').map(parseLine);
  const last = lines.filter((l): l is Extract<LogLine, { t: 'o' }> => l?.t === 'o').at(-1);
  return last!.id;
}
