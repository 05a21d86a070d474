import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { geminiChatEvents } from './gemini-chat.ts';
import { detectFormat } from './detect-format.ts';
import { newStats, type UsageRecord } from './types.ts';

// Records in the shapes Gemini CLI's ChatRecordingService appends: metadata, then messages appended again
// whole as they grow.
const META = JSON.stringify({
  sessionId: '333faa51-b528-40d3-b0b1-68d9db6bbb50',
  projectHash: 'ab12',
  startTime: '2026-11-29T20:29:00.000Z',
  lastUpdated: '2026-11-29T20:29:00.000Z',
});
const user = JSON.stringify({
  id: 'u1',
  timestamp: '2026-11-29T20:29:01.000Z',
  type: 'user',
  content: [{ text: 'fix the tests' }],
});
const shell = (id: string, status: string, output: string) => ({
  id,
  name: 'run_shell_command',
  args: { command: 'npm test', description: 'run' },
  result: [{ functionResponse: { id, name: 'run_shell_command', response: { output } } }],
  status,
  timestamp: '2026-11-29T20:29:44.363Z',
});
const g1 = {
  id: 'g1',
  timestamp: '2026-11-29T20:29:02.000Z',
  type: 'gemini',
  content: '',
  model: 'gemini-3.1-pro-preview',
};
const LINES = [
  META,
  user,
  JSON.stringify({ ...g1, toolCalls: [shell('t1', 'error', 'Exit Code: 1')] }),
  JSON.stringify({
    ...g1,
    toolCalls: [shell('t1', 'error', 'Exit Code: 1')],
    tokens: { input: 1000, output: 20, cached: 600, thoughts: 30, tool: 0, total: 1050 },
  }),
  JSON.stringify({ $set: { lastUpdated: '2026-11-29T20:29:03.000Z' } }),
  JSON.stringify({
    id: 'g2',
    timestamp: '2026-11-29T20:29:05.000Z',
    type: 'gemini',
    content: 'done',
    model: 'gemini-3.1-pro-preview',
    tokens: { input: 1200, output: 5, cached: 1000, thoughts: 0, total: 1205 },
  }),
  '{"id":"g3","type":"gem',
];

function read(lines: string[]) {
  const stats = newStats();
  const usages: UsageRecord[] = [];
  const items = [...geminiChatEvents(lines, 'session-x', stats, { usage: (u) => usages.push(u) })];
  return { items, stats, usages };
}

describe('the Gemini CLI chat reader', () => {
  it('is recognised from its metadata line, and the older pretty-printed JSON from its fields', () => {
    assert.equal(detectFormat([META]), 'gemini-chat');
    assert.equal(detectFormat(['{', '  "sessionId": "x",', '  "projectHash": "y",']), 'gemini-chat');
  });

  it('reads a message once, in its last form, with its tool calls and results', () => {
    const { items } = read(LINES);
    // a response's calls are one batch
    assert.deepEqual(
      items.map((i) => `${i.event.kind}@${i.step}`),
      ['prompt@0', 'batch-end@0', 'pre-tool@0', 'post-tool@0', 'batch-end@1'],
    );
    const post = items[3]!.event as Extract<(typeof items)[number]['event'], { kind: 'post-tool' }>;
    assert.equal(post.call.name, 'run_shell_command');
    assert.equal(post.ok, false);
    assert.equal(post.output, 'Exit Code: 1');
  });

  it("counts a message's tokens once: cached input apart, thoughts as output", () => {
    const { usages } = read(LINES);
    assert.deepEqual(usages, [
      {
        key: 'g1',
        tokens: { input: 400, output: 50, cacheWrite: 0, cacheRead: 600 },
        model: 'gemini-3.1-pro-preview',
        step: 0,
      },
      { key: 'g2', tokens: { input: 200, output: 5, cacheWrite: 0, cacheRead: 1000 }, model: 'gemini-3.1-pro-preview' },
    ]);
  });

  it('counts the truncated last line and skips it', () => {
    assert.equal(read(LINES).stats.skipped, 1);
  });

  it('reads the older single-document chats', () => {
    const doc = JSON.stringify(
      {
        sessionId: 's',
        projectHash: 'p',
        startTime: 'x',
        lastUpdated: 'x',
        messages: [JSON.parse(user), { ...g1, toolCalls: [shell('t1', 'success', 'ok')] }],
      },
      null,
      2,
    );
    const { items, stats } = read(doc.split('\n'));
    assert.deepEqual(
      items.map((i) => i.event.kind),
      ['prompt', 'batch-end', 'pre-tool', 'post-tool', 'batch-end'],
    );
    assert.equal(stats.skipped, 0);
    const broken = read(doc.split('\n').slice(0, 8));
    assert.equal(broken.items.length, 0);
    assert.equal(broken.stats.skipped, 8);
  });
});
