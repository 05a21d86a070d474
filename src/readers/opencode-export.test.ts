import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { detectFormat } from './detect-format.ts';
import { opencodeExportEvents } from './opencode-export.ts';
import { newStats, type UsageRecord } from './types.ts';

// `opencode export <id>` of opencode 1.18.33, in the shape the real CLI printed (outputs shortened).

const tool = (callID: string, tool: string, state: Record<string, unknown>) => ({
  type: 'tool',
  tool,
  callID,
  state,
  id: `prt_${callID}`,
  sessionID: 'ses_dcea0ec8fffeciUu6ilFyYOFyf',
});
const assistant = (id: string, parts: unknown[]) => ({
  info: {
    id,
    role: 'assistant',
    modelID: 'claude-sonnet-4-5',
    providerID: 'anthropic',
    tokens: { total: 160, input: 100, output: 20, reasoning: 10, cache: { write: 5, read: 25 } },
    time: { created: 1796124648554 },
  },
  parts: [{ type: 'step-start' }, ...parts, { type: 'step-finish', reason: 'tool-calls' }],
});
const DOC = {
  info: {
    id: 'ses_dcea0ec8fffeciUu6ilFyYOFyf',
    slug: 'neon-pixel',
    directory: '/home/dev/proj',
    title: 'Fixing the tests',
    version: '1.18.33',
  },
  messages: [
    {
      info: { id: 'msg_1', role: 'user', time: { created: 1796124644668 } },
      parts: [
        { type: 'text', text: 'fix the failing tests' },
        { type: 'text', text: 'context', synthetic: true },
      ],
    },
    assistant('msg_2', [
      tool('t1', 'bash', {
        status: 'completed',
        input: { command: 'npm test', description: 'run' },
        output: '0 passed, 2 failed\n',
        metadata: { exit: 1 },
      }),
    ]),
    assistant('msg_3', [
      tool('t2', 'edit', {
        status: 'error',
        input: { filePath: 'src/math.js', oldString: 'x', newString: 'y' },
        error: 'Could not find oldString in the file.',
      }),
    ]),
  ],
};
const LINES = JSON.stringify(DOC, null, 2).split('\n');

describe('the opencode export reader', () => {
  it('is recognised from the session id in its first lines', () => {
    assert.equal(detectFormat(LINES.slice(0, 25)), 'opencode-export');
  });

  it('reads the prompt, each call with its outcome (a shell exit code, a thrown error) and the usage', () => {
    const stats = newStats();
    const usages: UsageRecord[] = [];
    const items = [...opencodeExportEvents(LINES, 's', stats, { usage: (u) => usages.push(u) })];
    assert.deepEqual(
      items.map((i) => [
        i.event.kind,
        i.step,
        i.event.kind === 'prompt' ? i.event.prompt : 'call' in i.event ? i.event.call.name : '',
        i.event.kind === 'post-tool' ? i.event.ok : undefined,
      ]),
      [
        ['prompt', 0, 'fix the failing tests', undefined],
        ['pre-tool', 0, 'bash', undefined],
        ['post-tool', 0, 'bash', false],
        ['pre-tool', 1, 'edit', undefined],
        ['post-tool', 1, 'edit', false],
      ],
    );
    assert.deepEqual(usages[0], {
      key: 'msg_2',
      tokens: { input: 100, output: 30, cacheWrite: 5, cacheRead: 25 },
      model: 'claude-sonnet-4-5',
      step: 0,
    });
    assert.equal(stats.skipped, 0);
  });

  it('counts a document cut short as skipped lines, and reads nothing from it', () => {
    const stats = newStats();
    assert.deepEqual([...opencodeExportEvents(LINES.slice(0, 10), 's', stats)], []);
    assert.equal(stats.skipped, 10);
  });
});
