import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Actor, Decision, Event } from '../types.ts';
import { SEED_RULE, configOf } from '../../test/support/config.ts';
import { observation } from './step.ts';
import { reduce } from './engine.ts';
import { initialState, MAX_LIVE_SUBAGENTS, type State, SUBAGENT_IDLE_MS } from './state.ts';

// A session may run hundreds of subagents; the state holds only the live ones, so neither a call's work
// nor a checkpoint grows with how many have come and gone.

const CWD = '/home/dev/proj';
const config = configOf(SEED_RULE);
const FAIL = 'Exit code 1\n1 passed, 1 failed';

/** An event without the fields the run fills in. */
type Bare = { [K in Event['kind']]: Omit<Extract<Event, { kind: K }>, 'session' | 'time' | 'cwd'> }[Event['kind']];

class Run {
  state: State = initialState();
  time = 1_700_000_000_000;

  feed(event: Bare, after = 1000): Decision {
    this.time += after;
    const r = reduce(
      this.state,
      observation({ session: 's1', cwd: CWD, time: this.time, ...event } as Event, {
        cwd: CWD,
        home: '/home/dev',
        stallguardHome: '/home/dev/.stallguard',
      }),
      config,
    );
    this.state = r.state;
    return r.decision;
  }

  failingTest(agent: Actor, after?: number): Decision {
    const call = { name: 'Bash', input: { command: 'npm test' } };
    this.feed({ kind: 'pre-tool', agent, call }, after);
    return this.feed({ kind: 'post-tool', agent, call, output: FAIL, ok: false });
  }

  read(agent: Actor, i: number): Decision {
    const call = { name: 'Read', input: { file_path: `${CWD}/src/f${i}.ts` } };
    return this.feed({ kind: 'post-tool', agent, call, output: `content ${i}`, ok: true });
  }

  stop(agent: Actor, message = 'Reviewed; two findings.'): Decision {
    return this.feed({ kind: 'stop', agent, message });
  }

  live(): string[] {
    return Object.keys(this.state.agents).sort();
  }
}

const sub = (i: number): Actor => ({ id: `agent-${i}`, type: 'reviewer' });

describe('subagents leave the state when they end', () => {
  it('drops a subagent at its stop, and one that comes back starts fresh', () => {
    const run = new Run();
    run.feed({ kind: 'prompt', agent: { id: 'main' }, prompt: 'review the modules' });
    for (let i = 0; i < 4; i++) assert.equal(run.failingTest(sub(1)).action, 'allow');
    assert.deepEqual(run.live(), ['agent-1']);
    assert.equal(run.stop(sub(1)).action, 'allow');
    assert.deepEqual(run.live(), []);
    // the same id again: its four failures before the stop do not count toward a fifth
    assert.equal(run.failingTest(sub(1)).action, 'allow');
    assert.equal(run.state.agents['agent-1']!.window.length, 1);

    // beside it, an agent that never stopped is nudged on its fifth identical failure
    const other = new Run();
    other.feed({ kind: 'prompt', agent: { id: 'main' }, prompt: 'review the modules' });
    const d = Array.from({ length: 5 }, () => other.failingTest(sub(1)));
    assert.equal(d[4]!.action, 'nudge');
  });

  it('keeps a subagent sent back at its stop: it goes on working', () => {
    const run = new Run();
    run.failingTest(sub(2));
    const chant = 'I will run the tests again. '.repeat(config.chant + 1);
    assert.equal(run.stop(sub(2), chant).action, 'nudge');
    assert.deepEqual(run.live(), ['agent-2']);
  });

  it('keeps the main agent at its stop', () => {
    const run = new Run();
    run.read({ id: 'main' }, 1);
    run.stop({ id: 'main' });
    assert.deepEqual(run.live(), ['main']);
  });

  it('holds the same state after 200 subagents as after one, when each stops', () => {
    const run = new Run();
    const sizes: number[] = [];
    for (let a = 0; a < 200; a++) {
      if (a % 10 === 0) run.feed({ kind: 'prompt', agent: { id: 'main' }, prompt: `batch ${a / 10}` });
      run.feed({
        kind: 'spawn',
        agent: { id: 'main' },
        call: { name: 'Agent', input: { subagent_type: 'reviewer', prompt: `review ${a}` } },
        childType: 'reviewer',
      });
      for (let i = 0; i < 25; i++) run.read(sub(a), a * 100 + i);
      run.stop(sub(a));
      sizes.push(JSON.stringify(run.state).length);
    }
    assert.deepEqual(run.live(), ['main']);
    assert.equal(run.state.totals.calls, 200 * 25);
    assert.ok(
      Math.max(...sizes.slice(100)) <= Math.max(...sizes.slice(0, 20)) * 1.1,
      `state sizes ${sizes[10]} ... ${sizes[199]}`,
    );
  });
});

describe('subagents that end unseen', () => {
  it('keeps only the most recently active subagents when their stops never come', () => {
    const run = new Run();
    for (let a = 0; a < MAX_LIVE_SUBAGENTS + 20; a++) run.read(sub(a), a);
    const live = run.live();
    assert.equal(live.length, MAX_LIVE_SUBAGENTS);
    assert.ok(live.includes(`agent-${MAX_LIVE_SUBAGENTS + 19}`) && !live.includes('agent-0'), 'the oldest left first');
  });

  it('retires a subagent idle past the limit, and never the main agent', () => {
    const run = new Run();
    run.read({ id: 'main' }, 0);
    run.read(sub(1), 1);
    run.read(sub(2), 2);
    run.read(sub(2), 3);
    run.feed({ kind: 'batch-end', agent: sub(2) }, SUBAGENT_IDLE_MS - 5000);
    assert.deepEqual(run.live(), ['agent-1', 'agent-2', 'main'], 'within the limit');
    run.feed({ kind: 'batch-end', agent: sub(2) }, 10_000);
    assert.deepEqual(run.live(), ['agent-2', 'main']);
    run.feed({ kind: 'batch-end', agent: sub(3) }, SUBAGENT_IDLE_MS + 1);
    assert.deepEqual(run.live(), ['agent-3', 'main']);
  });
});
