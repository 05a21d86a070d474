import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Actor } from '../types.ts';
import type { ReplayItem, UsageRecord } from '../readers/types.ts';
import { configOf, SEED_RULE } from '../../test/support/config.ts';
import { StallMeter } from './meter.ts';
import { measure } from './measure.ts';

// A recorded session as a reader would yield it, with the model usage arriving where a transcript has it.
class Recording {
  readonly entries: (ReplayItem | UsageRecord)[] = [];
  private step = 0;

  prompt(): this {
    this.entries.push({
      event: { session: 's', agent: { id: 'main' }, kind: 'prompt', prompt: 'go' },
      step: this.step,
    });
    return this;
  }

  /** A model response making one call, then the call's result; `late` writes the usage after the result. */
  call(
    command: string,
    output: string,
    opts: { ok?: boolean; agent?: Actor; tokens?: number; model?: string; key?: string; late?: boolean } = {},
  ): this {
    const agent = opts.agent ?? { id: 'main' };
    const call = { name: 'Bash', input: { command } };
    const usage: UsageRecord = {
      tokens: { input: opts.tokens ?? 1000, output: 0, cacheWrite: 0, cacheRead: 0 },
      model: opts.model ?? 'claude-sonnet-4-5',
      step: this.step,
      ...(opts.key ? { key: opts.key } : {}),
    };
    if (!opts.late) this.entries.push(usage);
    this.entries.push({ event: { session: 's', agent, kind: 'pre-tool', call }, step: this.step });
    this.entries.push({
      event: { session: 's', agent, kind: 'post-tool', call, output, ok: opts.ok ?? false },
      step: this.step,
    });
    if (opts.late) this.entries.push(usage);
    this.step++;
    return this;
  }

  times(n: number, f: (r: this) => void): this {
    for (let i = 0; i < n; i++) f(this);
    return this;
  }

  meter(seen?: Map<string, number>): StallMeter {
    const meter = new StallMeter(64, seen);
    const entries = this.entries;
    measure(
      (function* () {
        for (const e of entries)
          if ('event' in e) yield e;
          else meter.usage(e);
      })(),
      configOf(SEED_RULE),
      meter,
    );
    return meter;
  }
}

const FAIL = 'Exit code 1\n1 failed';

describe('the cost of a stall', () => {
  it("runs from the loop's first call through the calls that kept repeating it", () => {
    const m = new Recording()
      .prompt()
      .call('cat a.js', 'x', { ok: true })
      .times(7, (r) => r.call('npm test', FAIL))
      .call('vim a.js', '', { ok: true })
      .meter();
    assert.equal(m.stalls.length, 1);
    const s = m.stalls[0]!;
    assert.deepEqual([s.action, s.step, s.from, s.to, s.calls, s.after], ['nudge', 5, 1, 7, 7, 'repeated']);
    assert.equal(s.loop, '`Bash npm test` x5');
    assert.deepEqual(s.tools, ['Bash']);
    assert.equal(s.spend.tokens.input, 7000);
    assert.equal(m.total.tokens.input, 9000);
    assert.equal(m.calls, 9);
    // 7000 input tokens of Sonnet 4.5 at $3 per million
    assert.ok(Math.abs(s.spend.usd - 0.021) < 1e-9);
  });

  it('never counts a call twice: a second stall takes the calls of its own loop from the first', () => {
    const m = new Recording()
      .prompt()
      .times(12, (r) => r.call('npm test', FAIL))
      .meter();
    assert.deepEqual(
      m.stalls.map((s) => [s.action, s.step, s.from, s.to, s.calls]),
      [
        ['nudge', 4, 0, 4, 5],
        ['stop', 9, 5, 11, 7],
      ],
    );
    assert.equal(m.inside().calls, 12);
    assert.equal(m.inside().spend.tokens.input, 12000);
    assert.equal(m.stalls[0]!.after, 'repeated');
  });

  it('counts what the agent did after a stop, until the next prompt', () => {
    const m = new Recording()
      .prompt()
      .times(10, (r) => r.call('npm test', FAIL))
      .call('ls', 'a', { ok: true })
      .call('git diff', '', { ok: true })
      .prompt()
      .call('npm test', FAIL)
      .meter();
    assert.equal(m.afterStop.calls, 2);
    assert.equal(m.afterStop.spend.tokens.input, 2000);
    assert.equal(m.stalls[1]!.after, 'changed');
  });

  it('closes a stretch at a new prompt, and says the agent made no further call', () => {
    const m = new Recording()
      .prompt()
      .times(5, (r) => r.call('npm test', FAIL))
      .prompt()
      .times(2, (r) => r.call('npm test', FAIL))
      .meter();
    assert.deepEqual([m.stalls[0]!.to, m.stalls[0]!.calls, m.stalls[0]!.after], [4, 5, 'ended']);
  });

  it('leaves out the calls of other agents made in between', () => {
    const sub = { id: 'agent-1', type: 'general-purpose' };
    const m = new Recording()
      .prompt()
      .times(5, (r) => r.call('npm test', FAIL).call('grep -r foo', 'bar', { ok: true, agent: sub }))
      .meter();
    const s = m.stalls[0]!;
    assert.deepEqual([s.agent, s.from, s.to, s.calls], ['main', 0, 8, 5]);
    assert.equal(s.spend.tokens.input, 5000);
  });

  it('gives a stall the tokens of a response written after its call', () => {
    const m = new Recording()
      .prompt()
      .times(6, (r) => r.call('npm test', FAIL, { late: true }))
      .meter();
    assert.equal(m.stalls[0]!.spend.tokens.input, 6000);
  });

  it('counts a response once by its key, across files', () => {
    const seen = new Map<string, number>();
    const a = new Recording().prompt().call('ls', 'a', { ok: true, key: 'msg_1:req_1' }).meter(seen);
    const b = new Recording()
      .prompt()
      .call('ls', 'a', { ok: true, key: 'msg_1:req_1' })
      .call('pwd', '/', { ok: true, key: 'msg_2:req_2' })
      .meter(seen);
    assert.equal(a.total.tokens.input, 1000);
    assert.equal(b.total.tokens.input, 1000);
  });

  it('adds only the growth of the output count when a response is seen again further along', () => {
    const seen = new Map<string, number>();
    const withSeen = new StallMeter(64, seen);
    for (const output of [2, 2, 150])
      withSeen.usage({
        key: 'msg_1:req_1',
        model: 'claude-opus-4-6',
        tokens: { input: 3, output, cacheWrite: 100, cacheRead: 5000 },
      });
    assert.deepEqual(withSeen.total.tokens, { input: 3, output: 150, cacheWrite: 100, cacheRead: 5000 });
  });

  it('counts the tokens of a model it has no price for, and prices none of them', () => {
    const m = new Recording()
      .prompt()
      .times(5, (r) => r.call('npm test', FAIL, { model: 'some-new-model' }))
      .meter();
    assert.equal(m.total.usd, 0);
    assert.equal(m.total.unpriced, 5000);
    assert.equal(m.stalls[0]!.spend.unpriced, 5000);
  });
});
