import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat } from './detect-format.ts';
import { piSessionEvents } from './pi-session.ts';
import { newStats, type SessionInfo, type UsageRecord } from './types.ts';

// Lines in the shapes pi 0.73.1 writes to ~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl (taken from a
// session the real CLI wrote, outputs shortened).

const HEADER = JSON.stringify({
  type: 'session',
  version: 3,
  id: '01a2315f-bcfd-72f0-91a8-6f20a8ecf8df',
  timestamp: '2026-12-01T11:31:27.614Z',
  cwd: '/home/dev/proj',
});
const entry = (id: string, message: Record<string, unknown>) =>
  JSON.stringify({ type: 'message', id, parentId: null, timestamp: '2026-12-01T11:31:28.000Z', message });
const usage = { input: 100, output: 20, cacheRead: 50, cacheWrite: 10, totalTokens: 180, cost: { total: 0 } };
const LINES = [
  HEADER,
  JSON.stringify({
    type: 'model_change',
    id: '4ce5f0dd',
    parentId: null,
    timestamp: '2026-12-01T11:31:27.869Z',
    provider: 'anthropic',
    modelId: 'claude-sonnet-4-5',
  }),
  entry('a1', { role: 'user', content: [{ type: 'text', text: 'fix the failing tests' }] }),
  entry('a2', {
    role: 'assistant',
    content: [
      { type: 'text', text: 'Running them.' },
      { type: 'toolCall', id: 't1', name: 'bash', arguments: { command: 'npm test' } },
    ],
    model: 'claude-sonnet-4-5',
    usage,
    stopReason: 'toolUse',
    responseId: 'msg_1',
  }),
  entry('a3', {
    role: 'toolResult',
    toolCallId: 't1',
    toolName: 'bash',
    content: [{ type: 'text', text: '0 passed, 2 failed\n\n\nCommand exited with code 1' }],
    details: {},
    isError: true,
  }),
  entry('a4', {
    role: 'assistant',
    content: [{ type: 'toolCall', id: 't2', name: 'read', arguments: { path: 'src/math.js' } }],
    model: 'claude-sonnet-4-5',
    usage,
    responseId: 'msg_2',
  }),
  entry('a5', {
    role: 'toolResult',
    toolCallId: 't2',
    toolName: 'read',
    content: [{ type: 'text', text: 'exports.add = (a, b) => a - b;' }],
    isError: false,
  }),
  JSON.stringify({
    type: 'compaction',
    id: 'c1',
    parentId: 'a5',
    timestamp: '2026-12-01T11:40:00.000Z',
    summary: '...',
    firstKeptEntryId: 'a3',
    tokensBefore: 5000,
  }),
  '{"type":"message","id":"a6","mess',
];

describe('the pi session reader', () => {
  it('is recognised from its header line', () => {
    assert.equal(detectFormat([HEADER]), 'pi-session');
  });

  it('reads the prompt, each call with its result, the usage, and the session facts; a torn line is counted', () => {
    const stats = newStats();
    const usages: UsageRecord[] = [];
    const infos: SessionInfo[] = [];
    const items = [...piSessionEvents(LINES, 's', stats, { usage: (u) => usages.push(u), info: (i) => infos.push(i) })];
    assert.deepEqual(
      items.map((i) => [
        i.event.kind,
        i.step,
        'call' in i.event ? i.event.call.name : undefined,
        i.event.kind === 'post-tool' ? i.event.ok : undefined,
      ]),
      [
        ['prompt', 0, undefined, undefined],
        ['pre-tool', 0, 'bash', undefined],
        ['post-tool', 0, 'bash', false],
        ['pre-tool', 1, 'read', undefined],
        ['post-tool', 1, 'read', true],
      ],
    );
    const result = items[2]!.event;
    assert.deepEqual(result.kind === 'post-tool' && [result.call.input, result.output], [
      { command: 'npm test' },
      '0 passed, 2 failed\n\n\nCommand exited with code 1',
    ]);
    assert.deepEqual(usages[0], {
      key: 'msg_1',
      tokens: { input: 100, output: 20, cacheWrite: 10, cacheRead: 50 },
      model: 'claude-sonnet-4-5',
      step: 0,
    });
    assert.deepEqual(infos, [{ session: '01a2315f-bcfd-72f0-91a8-6f20a8ecf8df', cwd: '/home/dev/proj' }]);
    assert.deepEqual([stats.lines, stats.skipped], [9, 1]);
  });
});
