import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ClaudeMessageReader } from './claude-messages.ts';

const main = { id: 'main' };
const use = (id: string, name: string) => ({ type: 'tool_use', id, name, input: {} });
const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' });

describe('Claude Code messages: batches', () => {
  it('closes a batch where the next response begins: the calls of one response are one batch', () => {
    const reader = new ClaudeMessageReader('s');
    const kinds = [
      ...reader.events({ role: 'user', content: 'fix it', agent: main, prompt: true }),
      // one response, its two calls written on two lines as the transcript does
      ...reader.events({ role: 'assistant', content: [use('a', 'Read')], agent: main, response: 'msg_1' }),
      ...reader.events({ role: 'assistant', content: [use('b', 'Grep')], agent: main, response: 'msg_1' }),
      ...reader.events({ role: 'user', content: [result('a'), result('b')], agent: main }),
      ...reader.events({ role: 'assistant', content: [use('c', 'Edit')], agent: main, response: 'msg_2' }),
      ...reader.events({ role: 'user', content: [result('c')], agent: main }),
      ...reader.finish(),
    ].map((i) => `${i.event.kind}@${i.step}`);
    assert.deepEqual(kinds, [
      'prompt@0',
      'batch-end@0',
      'pre-tool@0',
      'pre-tool@1',
      'post-tool@0',
      'post-tool@1',
      'batch-end@2',
      'pre-tool@2',
      'post-tool@2',
      'batch-end@3',
    ]);
  });

  it("keeps each agent its own batch: a subagent writing in between does not close the main agent's", () => {
    const reader = new ClaudeMessageReader('s');
    const sub = { id: 'toolu_x', type: 'Explore' };
    const events = [
      ...reader.events({ role: 'assistant', content: [use('a', 'Read')], agent: main, response: 'm1' }),
      ...reader.events({ role: 'assistant', content: [use('b', 'Read')], agent: sub, response: 's1' }),
      ...reader.events({ role: 'assistant', content: [use('c', 'Read')], agent: main, response: 'm1' }),
    ].filter((i) => i.event.kind === 'batch-end');
    assert.deepEqual(
      events.map((i) => i.event.agent.id),
      ['main', 'toolu_x'],
    );
  });
});
