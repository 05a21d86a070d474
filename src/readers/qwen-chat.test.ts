import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { qwenChatEvents } from './qwen-chat.ts';
import { detectFormat } from './detect-format.ts';
import { newStats, type SessionInfo, type UsageRecord } from './types.ts';
import { claudeTranscript, qwenChat } from '../../test/support/histories.ts';

describe('the Qwen Code chat reader', () => {
  const S = 'f2726f30-fca7-4df4-a78c-a4501b271253';
  const lines = qwenChat(S, 2);
  const stats = newStats();
  const usages: UsageRecord[] = [];
  const info: SessionInfo = {};
  const items = [
    ...qwenChatEvents(lines, S, stats, { usage: (u) => usages.push(u), info: (i) => Object.assign(info, i) }),
  ];

  it("is told from Claude Code's transcript, which it resembles, by its message parts", () => {
    assert.equal(detectFormat([lines[0]!]), 'qwen-chat');
    assert.equal(detectFormat([claudeTranscript('s')[0]!]), 'claude-transcript');
    assert.deepEqual(info, { session: S, cwd: '/home/dev/billing' });
  });

  it('yields the prompt, then each call and its failed result, and skips its telemetry lines', () => {
    assert.deepEqual(
      items.map((i) => [i.event.kind, i.step, i.event.kind === 'post-tool' ? i.event.ok : undefined]),
      [
        ['prompt', 0, undefined],
        ['pre-tool', 0, undefined],
        ['post-tool', 0, false],
        ['pre-tool', 1, undefined],
        ['post-tool', 1, false],
      ],
    );
    assert.equal(stats.skipped, 0);
  });

  it('reads usage as Gemini counts it: the cached part apart, thoughts as output', () => {
    assert.deepEqual(usages[0], {
      key: 'q2',
      model: 'qwen3-coder-plus',
      tokens: { input: 1000, output: 50, cacheWrite: 0, cacheRead: 2000 },
      step: 0,
    });
  });

  it('names a subagent by its agentId, and its session as the parent', () => {
    const sub = qwenChat(S, 1).map((l) =>
      JSON.stringify({
        ...JSON.parse(l),
        agentId: 'general-purpose-call_9',
        agentName: 'general-purpose',
        provenance: undefined,
      }),
    );
    const subInfo: SessionInfo = {};
    const got = [
      ...qwenChatEvents(sub, 'agent-general-purpose-call_9', newStats(), { info: (i) => Object.assign(subInfo, i) }),
    ];
    assert.deepEqual(got[0]!.event.agent, { id: 'general-purpose-call_9', type: 'general-purpose' });
    assert.equal(got.filter((i) => i.event.kind === 'prompt').length, 0, 'its task is counted as the spawn');
    assert.equal(subInfo.parent, S);
  });
});
