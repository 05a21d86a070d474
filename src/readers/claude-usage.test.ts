import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { claudeTranscriptEvents } from './claude-transcript.ts';
import { UsageCoalescer } from './claude-usage.ts';
import { newStats, type UsageRecord } from './types.ts';

// A Claude Code transcript writes one API response as one line per content block, each carrying the
// same message id, request id and usage.
const usage = {
  input_tokens: 3,
  output_tokens: 120,
  cache_creation_input_tokens: 2962,
  cache_read_input_tokens: 17997,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 2962 },
};
const assistant = (content: object[]) =>
  JSON.stringify({
    type: 'assistant',
    uuid: 'u',
    sessionId: 's1',
    cwd: '/home/dev/proj',
    requestId: 'req_1',
    message: { id: 'msg_1', model: 'claude-opus-4-6', role: 'assistant', content, usage },
  });

describe('usage in a Claude Code transcript', () => {
  it('counts a response once, with the step of the first call it made', () => {
    const stats = newStats();
    const usages: UsageRecord[] = [];
    const lines = [
      assistant([{ type: 'thinking', thinking: '…' }]),
      assistant([{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test' } }]),
      assistant([{ type: 'tool_use', id: 'toolu_2', name: 'Read', input: { file_path: '/home/dev/proj/a.js' } }]),
    ];
    [...claudeTranscriptEvents(lines, 's1', stats, { usage: (u) => usages.push(u) })];
    assert.deepEqual(
      usages.map((u) => [u.key, u.step]),
      [['msg_1:req_1', 0]],
    );
    assert.deepEqual(usages[0]!.tokens, { input: 3, output: 120, cacheWrite: 2962, cacheRead: 17997 });
    assert.equal(usages[0]!.cacheWrite1h, 2962);
    assert.equal(usages[0]!.model, 'claude-opus-4-6');
  });
});

describe('the usage coalescer', () => {
  it("keeps the largest count of each kind across a response's lines, and starts afresh on the next response", () => {
    const out: UsageRecord[] = [];
    const c = new UsageCoalescer((u) => out.push(u));
    const t = (input: number, output: number) => ({ input, output, cacheWrite: 0, cacheRead: 0 });
    c.push({ key: 'a', tokens: t(3, 2) });
    c.push({ key: 'a', tokens: t(3, 120), step: 4 });
    c.push({ key: 'b', tokens: t(5, 9) });
    c.flush();
    assert.deepEqual(out, [
      { key: 'a', tokens: t(3, 120), step: 4 },
      { key: 'b', tokens: t(5, 9) },
    ]);
  });
});
