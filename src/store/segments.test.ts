import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { Actor, Event, Observation } from '../types.ts';
import { DEFAULT_CONFIG } from '../config/defaults.ts';
import { observation } from '../engine/step.ts';
import { reduce } from '../engine/engine.ts';
import { initialState } from '../engine/state.ts';
import { type LogLine, parseLine } from './session-log.ts';
import {
  foldLatest,
  holdPath,
  isSessionName,
  observeAllInLog,
  observeInLog,
  segmentPath,
  sessionLog,
  sessionSegments,
} from './segments.ts';

// Past a size a session's log goes on in a new segment headed by the state at the seal. Whatever the
// segment size, every call is decided as it would be in one endless file, and the ledger's readers see
// every observation once.

const CWD = '/home/dev/proj';
const ctx = { cwd: CWD, home: '/home/dev', stallguardHome: '/home/dev/.stallguard' };
const meta = { t: 'm' as const, session: 's1', agent: 'claude' as const, time: 1 };

/** An event without the fields every event of the scenario shares. */
type Bare = { [K in Event['kind']]: Omit<Extract<Event, { kind: K }>, 'session' | 'time'> }[Event['kind']];

function obs(event: Bare, i: number): Observation {
  return observation({ session: 's1', time: 1_700_000_000_000 + i * 1000, ...event } as Event, ctx);
}

/** Twelve subagents in three tasks, each looping on a failing test now and then, beside a main agent that reads. */
function scenario(): Observation[] {
  const out: Observation[] = [];
  const test = { name: 'Bash', input: { command: 'npm test' } };
  for (let a = 0; a < 12; a++) {
    if (a % 4 === 0)
      out.push(obs({ kind: 'prompt', agent: { id: 'main' }, prompt: 'review', task: `p${a}` }, out.length));
    const agent: Actor = { id: `agent-${a}`, type: 'reviewer' };
    for (let i = 0; i < 8; i++) {
      out.push(obs({ kind: 'pre-tool', agent, call: test }, out.length));
      out.push(
        obs(
          {
            kind: 'post-tool',
            agent,
            call: test,
            output: a % 3 === 0 ? 'Exit code 1\n1 failed' : `${i} passed`,
            ok: a % 3 !== 0,
          },
          out.length,
        ),
      );
      out.push(
        obs(
          {
            kind: 'post-tool',
            agent: { id: 'main' },
            call: { name: 'Read', input: { file_path: `${CWD}/f${a}-${i}.ts` } },
            output: `c${i}`,
            ok: true,
          },
          out.length,
        ),
      );
    }
    out.push(obs({ kind: 'stop', agent, message: `done ${a}` }, out.length));
  }
  return out;
}

function scratchFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'sg-seg-')), 'sessions', 's1.jsonl');
}

function run(file: string, list: Observation[], segmentBytes: number, before?: (i: number) => void): string[] {
  return list.map((o, i) => {
    before?.(i);
    const d = observeInLog(file, o, DEFAULT_CONFIG, meta, segmentBytes).decision;
    return d.code ?? d.action;
  });
}

function lines(file: string): (LogLine | undefined)[] {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(parseLine);
}

/** The decisions of a fold of the whole list in memory, as replay takes them. */
function folded(list: Observation[]): string[] {
  let state = initialState();
  return list.map((o) => {
    const r = reduce(state, o, DEFAULT_CONFIG);
    state = r.state;
    return r.decision.code ?? r.decision.action;
  });
}

const LIST = scenario();
const REFERENCE = folded(LIST);

describe('a session log in segments', () => {
  it('decides every call as one endless file would, with small segments', () => {
    for (const code of ['STALL', 'REPEAT_DENIED', 'STOPPED'])
      assert.ok(REFERENCE.includes(code), `${code} in the scenario`);
    assert.deepEqual(run(scratchFile(), LIST, Infinity), REFERENCE, 'one endless file');
    const file = scratchFile();
    assert.deepEqual(run(file, LIST, 8 * 1024), REFERENCE);
    const segments = sessionSegments(file);
    assert.ok(segments.length >= 4, `${segments.length} segments`);
    // each segment after the first starts from a checkpoint: no fold there ever starts from an empty state
    for (const seg of segments.slice(1))
      assert.deepEqual(
        lines(seg)
          .slice(0, 2)
          .map((l) => l?.t),
        ['m', 'c'],
      );
    assert.deepEqual(readdirSync(dirname(file)).filter(isSessionName), [basename(file)], 'one session to list');
  });

  it('decides observations written together (a batch end and the results it lists) as written one by one', () => {
    const file = scratchFile();
    const together: string[] = [];
    // in threes, each group one write and one fold, across seals of small segments
    for (let i = 0; i < LIST.length; i += 3) {
      const { decisions } = observeAllInLog(file, LIST.slice(i, i + 3), DEFAULT_CONFIG, meta, 8 * 1024);
      together.push(...decisions.map((d) => d.code ?? d.action));
    }
    assert.deepEqual(together, REFERENCE);
    const seen = [...sessionLog(file)].filter((l): l is Extract<LogLine, { t: 'o' }> => l?.t === 'o');
    assert.deepEqual(
      seen.map((l) => l.o),
      LIST,
    );
  });

  it('folds a call about to run only where its agent may have it refused: after a stall, or once stopped', () => {
    const file = scratchFile();
    const agent = LIST.find((o) => o.agent.id !== 'main' && o.step.k === 'pre')!.agent.id;
    const marked = () => existsSync(holdPath(file, agent));
    const seen: string[] = [];
    for (const o of LIST) {
      const held = marked();
      const r = observeInLog(file, o, DEFAULT_CONFIG, meta, Infinity);
      if (o.agent.id !== agent || o.step.k !== 'pre') continue;
      assert.equal(r.folded > 0, held, 'folded exactly where the agent was marked');
      seen.push(`${held ? 'held' : 'free'} ${r.decision.code ?? r.decision.action}`);
      if (seen.includes('held STOPPED')) break;
    }
    assert.deepEqual(
      [...new Set(seen)],
      ['free allow', 'held REPEAT_DENIED', 'held STOPPED'],
      'allowed unfolded, refused after folding',
    );
  });

  it("goes on in new segments where an agent's events are all calls about to run, none of them folded", () => {
    const file = scratchFile();
    const pres = Array.from({ length: 200 }, (_, i) =>
      obs(
        { kind: 'pre-tool', agent: { id: 'main' }, call: { name: 'Read', input: { file_path: `${CWD}/f${i}.ts` } } },
        i,
      ),
    );
    const decided = pres.map((o) => observeInLog(file, o, DEFAULT_CONFIG, meta, 8 * 1024));
    assert.ok(decided.every((d) => d.decision.action === 'allow'));
    assert.ok(decided.filter((d) => d.folded === 0).length > 150, 'most recorded without a fold');
    assert.ok(sessionSegments(file).length >= 3, 'each sealed past its size by a fold');
    assert.equal(foldLatest(file, DEFAULT_CONFIG).state.seen, 200, 'all of them in the state, once');
  });

  it('gives its readers every observation once, in order', () => {
    const file = scratchFile();
    run(file, LIST, 8 * 1024);
    const seen = [...sessionLog(file)].filter((l): l is Extract<LogLine, { t: 'o' }> => l?.t === 'o');
    assert.deepEqual(
      seen.map((l) => l.o),
      LIST,
    );
    assert.equal([...sessionLog(file)].filter((l) => l?.t === 'm').length, 1);
  });

  it('compacts a segment two seals back to its head, observations and decisions', () => {
    const file = scratchFile();
    run(file, LIST, 8 * 1024);
    const old = lines(segmentPath(file, 1));
    assert.deepEqual(old.filter((l) => l?.t === 'c').length, 1, 'the head checkpoint only');
    assert.equal(old.filter((l) => l?.t === 's').length, 1);
    assert.equal(old.at(-1)?.t, 's', 'nothing after the seal');
    const live = lines(sessionSegments(file).at(-1)!);
    assert.ok(live.filter((l) => l?.t === 'c').length >= 1);
  });

  it('answers the latest state of a segment just opened by a seal, which holds its head alone', () => {
    const file = scratchFile();
    const endless = scratchFile();
    for (const o of LIST) {
      observeInLog(file, o, DEFAULT_CONFIG, meta, 8 * 1024);
      observeInLog(endless, o, DEFAULT_CONFIG, meta, Infinity);
      const { state } = foldLatest(endless, DEFAULT_CONFIG);
      const latest = lines(sessionSegments(file).at(-1)!);
      if (latest.some((l) => l?.t === 'o')) continue;
      assert.deepEqual(
        latest.map((l) => l?.t),
        ['m', 'c'],
        'a segment just opened: its meta line and its head',
      );
      assert.deepEqual(foldLatest(file, DEFAULT_CONFIG).state, JSON.parse(JSON.stringify(state)));
      assert.equal(foldLatest(endless, DEFAULT_CONFIG).state.totals.calls, state.totals.calls);
      return;
    }
    assert.fail('the scenario never sealed a segment');
  });

  it('takes a line that landed after a seal again in the next segment', () => {
    const file = scratchFile();
    let early = -1;
    let taken: [string | undefined, string | undefined] = [undefined, undefined];
    // a racing writer seals the segment being written early,
    // before the size says so: the next line lands after the seal
    const decisions = run(file, LIST, 32 * 1024, (i) => {
      if (i === 40) {
        early = sessionSegments(file).length - 1;
        appendFileSync(segmentPath(file, early), JSON.stringify({ t: 's', next: early + 1 }) + '\n');
      }
      // before a later seal compacts it away: the late line in the sealed segment, and the same line again in the next
      const last = (f: string) =>
        JSON.stringify(
          lines(f)
            .filter((l) => l?.t === 'o')
            .at(-1),
        );
      if (i === 41) taken = [last(segmentPath(file, early)), last(segmentPath(file, early + 1))];
    });
    assert.ok(
      taken[0] !== undefined && taken[0] === taken[1],
      'the line after the seal is taken again in the next segment',
    );
    assert.deepEqual(decisions, REFERENCE);
    const seen = [...sessionLog(file)].filter((l) => l?.t === 'o');
    assert.equal(seen.length, LIST.length, 'each observation once');
  });
});
