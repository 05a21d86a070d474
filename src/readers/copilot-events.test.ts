import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copilotEventsEvents } from './copilot-events.ts';
import { detectFormat } from './detect-format.ts';
import { newStats, type SessionInfo, type UsageRecord } from './types.ts';
import { copilotEvents } from '../../test/support/histories.ts';

describe('the Copilot CLI events reader', () => {
  const S = 'c98425e3-efd3-40a4-87ee-efc86b3ac039';
  const lines = [...copilotEvents(S, 2), '{"type":"tool.exec'];
  const stats = newStats();
  const usages: UsageRecord[] = [];
  const info: SessionInfo = {};
  const items = [
    ...copilotEventsEvents(lines, 'events', stats, {
      usage: (u) => usages.push(u),
      info: (i) => Object.assign(info, i),
    }),
  ];

  it("is recognised from its first line, and told from the other agents' formats", () => {
    assert.equal(detectFormat([lines[0]!]), 'copilot-events');
    assert.deepEqual(info, { session: S, cwd: '/home/dev/shop' });
  });

  it('turns each started and completed call into a call, the exit code in the trailer deciding success', () => {
    const calls = items
      .filter((i) => i.event.kind === 'post-tool')
      .map((i) => i.event as Extract<(typeof i)['event'], { kind: 'post-tool' }>);
    assert.deepEqual(
      calls.map((c) => [c.call.name, c.ok, c.agent.id]),
      [
        ['bash', false, 'main'],
        ['bash', false, 'main'],
        ['view', false, 'ebf2053b-1237-46d9-91b5-a101fb3b175a'],
        ['task', true, 'main'],
      ],
    );
    // the trailer counts up with every command: it is taken off
    assert.ok(!String(calls[0]!.output).includes('shellId'));
    assert.deepEqual(items.find((i) => i.event.kind === 'pre-tool' && i.event.agent.id !== 'main')!.event.agent, {
      id: 'ebf2053b-1237-46d9-91b5-a101fb3b175a',
      type: 'explore',
    });
  });

  it("yields the person's prompt and the spawn, never the subagent's task message", () => {
    assert.deepEqual(
      items.filter((i) => i.event.kind === 'prompt' || i.event.kind === 'spawn').map((i) => i.event.kind),
      ['prompt', 'spawn'],
    );
  });

  it("reads each model response's usage, the cached part of the input apart, with the call it made", () => {
    assert.deepEqual(usages[0], {
      key: 'api0',
      model: 'claude-sonnet-4.5',
      tokens: { input: 1000, output: 40, cacheWrite: 0, cacheRead: 2000 },
      step: 0,
    });
    assert.equal(usages[1]!.step, 1);
    assert.equal(stats.skipped, 1, 'the line cut short');
  });
});
