import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Event } from '../types.ts';
import { DEFAULT_CONFIG } from '../config/defaults.ts';
import { allowedUnlessHeld, holdsRefusal, reduce } from './engine.ts';
import { agentIn, initialState } from './state.ts';
import { observation } from './step.ts';

// The hook records a call about to run without folding the session when its agent holds no refusal (the
// store's hold mark). That is sound only if reduce() allows every such call of an agent that holds none.

const ctx = { cwd: '/home/dev/proj', home: '/home/dev', stallguardHome: '/home/dev/.stallguard' };
const test = { name: 'Bash', input: { command: 'npm test' } };
const read = { name: 'Read', input: { file_path: '/home/dev/proj/a.ts' } };

/** One of a few events, picked by `n`: failing runs (most), a passing one, a read, calls about to run, a prompt. */
function eventOf(n: number, i: number): Event {
  const base = { session: 's', time: 1_700_000_000_000 + i * 1000 };
  const agent = n % 7 === 6 ? { id: 'sub', type: 'reviewer' } : { id: 'main' };
  const fail = { ...base, kind: 'post-tool' as const, agent, call: test, output: 'Exit code 1\n1 failed', ok: false };
  switch (n % 8) {
    case 0:
    case 1:
    case 2:
      return fail;
    case 3:
      return { ...base, kind: 'post-tool', agent, call: test, output: `${i} passed`, ok: true };
    case 4:
      return { ...base, kind: 'post-tool', agent, call: read, output: 'export const a = 1;', ok: true };
    case 5:
      return { ...base, kind: 'pre-tool', agent, call: test };
    case 6:
      return { ...base, kind: 'pre-tool', agent, call: read };
    default:
      return n % 5 === 0 ? { ...base, kind: 'prompt', agent: { id: 'main' }, prompt: 'again' } : fail;
  }
}

describe('a call about to run', () => {
  it('is allowed in every state where its agent holds no refusal, and refused only where it holds one', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const refused = new Set<string>();
    for (let run = 0; run < 30; run++) {
      let state = initialState();
      for (let i = 0; i < 80; i++) {
        for (const agent of [{ id: 'main' }, { id: 'sub', type: 'reviewer' }])
          for (const call of [test, read]) {
            const pre = observation({ session: 's', time: 1, kind: 'pre-tool', agent, call }, ctx);
            assert.ok(allowedUnlessHeld(pre));
            const d = reduce(state, pre, DEFAULT_CONFIG).decision;
            if (d.action === 'allow') continue;
            assert.ok(holdsRefusal(agentIn(state, agent.id)), `${d.code} refused an agent that held no refusal`);
            refused.add(d.code!);
          }
        state = reduce(state, observation(eventOf(next() >> 8, i), ctx), DEFAULT_CONFIG).state;
      }
    }
    assert.deepEqual([...refused].sort(), ['REPEAT_DENIED', 'STOPPED'], 'both kinds of refusal were met');
  });

  it("touching stallguard's own files is decided by the call itself, never unfolded", () => {
    const pre = observation(
      {
        session: 's',
        time: 1,
        kind: 'pre-tool',
        agent: { id: 'main' },
        call: { name: 'Write', input: { file_path: '/home/dev/.stallguard/config.json', content: '{}' } },
      },
      ctx,
    );
    assert.equal(allowedUnlessHeld(pre), false);
    assert.equal(reduce(initialState(), pre, DEFAULT_CONFIG).decision.code, 'SELF_PROTECT');
  });
});
