import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { codexOutput, codexRolloutEvents } from './codex-rollout.ts';
import { detectFormat } from './detect-format.ts';
import { newStats, type SessionInfo, type UsageRecord } from './types.ts';

// Lines in the shapes Codex CLI writes to ~/.codex/sessions (its rollout recorder), one envelope per line.
const line = (type: string, payload: object, t = '2026-11-29T20:27:23.000Z') =>
  JSON.stringify({ timestamp: t, type, payload });
const usage = (input: number, cached: number, output: number, total: [number, number, number]) =>
  line('event_msg', {
    type: 'token_count',
    info: {
      last_token_usage: {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: 0,
        total_tokens: input + output,
      },
      total_token_usage: {
        input_tokens: total[0],
        cached_input_tokens: total[1],
        output_tokens: total[2],
        reasoning_output_tokens: 0,
        total_tokens: total[0] + total[2],
      },
    },
  });

const ROLLOUT = [
  line('session_meta', {
    id: '01a228fd-acac-7071-8acf-28fd61e7d163',
    cwd: '/home/dev/proj',
    cli_version: '0.171.0',
    source: 'cli',
  }),
  line('turn_context', { cwd: '/home/dev/proj', model: 'gpt-5.3-codex' }),
  line('response_item', {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: '<environment_context>cwd</environment_context>' }],
  }),
  line('response_item', {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: 'fix the failing test' }],
  }),
  line('response_item', {
    type: 'function_call',
    name: 'shell',
    arguments: JSON.stringify({ command: ['bash', '-lc', 'npm test'], workdir: '/home/dev/proj' }),
    call_id: 'call_1',
  }),
  usage(1200, 1000, 40, [1200, 1000, 40]),
  usage(1200, 1000, 40, [1200, 1000, 40]), // Codex sometimes writes a count twice
  line('response_item', {
    type: 'function_call_output',
    call_id: 'call_1',
    output: JSON.stringify({ output: '1 passed, 1 failed\n', metadata: { exit_code: 1, duration_seconds: 0.4 } }),
  }),
  line('response_item', {
    type: 'custom_tool_call',
    name: 'apply_patch',
    input: '*** Begin Patch\n*** Update File: a.js\n-x\n+y\n*** End Patch',
    call_id: 'call_2',
    status: 'completed',
  }),
  line('response_item', {
    type: 'function_call',
    name: 'exec_command',
    arguments: JSON.stringify({ cmd: 'npm test' }),
    call_id: 'call_3',
  }),
  usage(1500, 1200, 60, [2700, 2200, 100]),
  line('response_item', {
    type: 'custom_tool_call_output',
    call_id: 'call_2',
    output: 'Success. Updated the following files:\nM a.js',
  }),
  line('response_item', {
    type: 'function_call_output',
    call_id: 'call_3',
    output: 'Chunk ID: 1\nWall time: 0.41 seconds\nProcess exited with code 0\nOutput:\n2 passed',
  }),
  line('some_future_record', { x: 1 }),
  '{"timestamp":"2026-11-29T20:27:30.000Z","type":"response_item","payload":{"type":"function_ca',
];

function read(lines: string[]) {
  const stats = newStats();
  const usages: UsageRecord[] = [];
  const infos: SessionInfo[] = [];
  const items = [
    ...codexRolloutEvents(lines, 'rollout-x', stats, { usage: (u) => usages.push(u), info: (i) => infos.push(i) }),
  ];
  return { items, stats, usages, infos };
}

describe('the Codex rollout reader', () => {
  it('is recognised from its first line', () => {
    assert.equal(detectFormat([ROLLOUT[0]!]), 'codex-rollout');
    assert.equal(
      detectFormat([JSON.stringify({ id: 'x', timestamp: '2025-05-01', instructions: '' })]),
      'codex-rollout',
    );
  });

  it('turns calls and their outputs into events, shell calls named Bash like the hooks name them', () => {
    const { items } = read(ROLLOUT);
    const kinds = items.map((i) => `${i.event.kind}@${i.step}`);
    // the two calls issued before either output came back are one batch, closed as a new one begins and at the end
    assert.deepEqual(kinds, [
      'prompt@0',
      'batch-end@0',
      'pre-tool@0',
      'post-tool@0',
      'batch-end@1',
      'pre-tool@1',
      'pre-tool@2',
      'post-tool@1',
      'post-tool@2',
      'batch-end@3',
    ]);
    const posts = items
      .filter((i) => i.event.kind === 'post-tool')
      .map((i) => i.event as Extract<(typeof i)['event'], { kind: 'post-tool' }>);
    assert.deepEqual(posts[0]!.call.input, { command: 'npm test' });
    assert.equal(posts[0]!.call.name, 'Bash');
    assert.equal(posts[0]!.ok, false, 'exit code 1 in the metadata');
    assert.equal(posts[1]!.call.name, 'apply_patch');
    assert.equal(posts[2]!.ok, true, '"Process exited with code 0"');
    assert.equal(posts[0]!.cwd, '/home/dev/proj');
  });

  it('counts token use once per response, cached input apart, and ties it to the first call the response made', () => {
    const { usages } = read(ROLLOUT);
    assert.deepEqual(usages, [
      { tokens: { input: 200, output: 40, cacheWrite: 0, cacheRead: 1000 }, model: 'gpt-5.3-codex', step: 0 },
      { tokens: { input: 300, output: 60, cacheWrite: 0, cacheRead: 1200 }, model: 'gpt-5.3-codex', step: 1 },
    ]);
  });

  it('falls back to the difference of running totals when a count has no last_token_usage', () => {
    const lines = [
      line('turn_context', { model: 'gpt-5' }),
      line('event_msg', {
        type: 'token_count',
        info: { total_token_usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 10 } },
      }),
      line('event_msg', {
        type: 'token_count',
        info: { total_token_usage: { input_tokens: 250, cached_input_tokens: 50, output_tokens: 30 } },
      }),
    ];
    assert.deepEqual(
      read(lines).usages.map((u) => u.tokens),
      [
        { input: 100, output: 10, cacheWrite: 0, cacheRead: 0 },
        { input: 100, output: 20, cacheWrite: 0, cacheRead: 50 },
      ],
    );
  });

  it('counts unknown and truncated lines and skips them', () => {
    const { stats } = read(ROLLOUT);
    assert.equal(stats.skipped, 2);
    assert.equal(stats.lines, ROLLOUT.length);
  });

  it('names the parent thread of a subagent rollout and files its calls under the subagent', () => {
    const lines = [
      line('session_meta', {
        id: 'child-1',
        cwd: '/p',
        source: { subagent: { thread_spawn: { parent_thread_id: 'parent-9', depth: 1 } } },
      }),
      line('response_item', {
        type: 'function_call',
        name: 'shell_command',
        arguments: '{"command":"ls"}',
        call_id: 'c',
      }),
      line('response_item', { type: 'function_call_output', call_id: 'c', output: 'a\nb' }),
    ];
    const { items, infos } = read(lines);
    assert.deepEqual(infos, [{ session: 'child-1', cwd: '/p', parent: 'parent-9' }]);
    assert.deepEqual(
      items.filter((i) => i.event.kind !== 'batch-end').map((i) => i.event.agent),
      [
        { id: 'child-1', type: 'subagent' },
        { id: 'child-1', type: 'subagent' },
      ],
    );
  });

  it('reads the older rollouts whose response items stand on their own lines', () => {
    const lines = [
      JSON.stringify({ id: 's', timestamp: '2025-06-01T00:00:00Z', instructions: '' }),
      JSON.stringify({ type: 'function_call', name: 'shell', arguments: '{"command":["npm","test"]}', call_id: 'a' }),
      JSON.stringify({ type: 'function_call_output', call_id: 'a', output: 'ok' }),
      JSON.stringify({ record_type: 'state' }),
    ];
    const { items, stats } = read(lines);
    assert.deepEqual(
      items.map((i) => i.event.kind),
      ['batch-end', 'pre-tool', 'post-tool', 'batch-end'],
    );
    assert.equal(stats.skipped, 0);
  });

  it('reads every shape of output Codex has written', () => {
    assert.deepEqual(codexOutput('Exit code: 2\nWall time: 1s\nOutput:\nboom'), {
      text: 'Exit code: 2\nWall time: 1s\nOutput:\nboom',
      ok: false,
    });
    assert.deepEqual(codexOutput([{ type: 'input_text', text: 'hello' }]), { text: 'hello', ok: null });
    assert.deepEqual(codexOutput({ content: 'denied', success: false }), { text: 'denied', ok: false });
    assert.deepEqual(codexOutput('plain'), { text: 'plain', ok: null });
  });
});
