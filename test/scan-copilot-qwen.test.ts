import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { copilotEvents, qwenChat, SEED_CWD, tempHome, write } from './support/histories.ts';

// stallguard scan over Copilot CLI's and Qwen Code's own history folders, laid out as they lay them out.

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

function scan(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [CLI, 'scan', ...args], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    cwd: SEED_CWD,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('stallguard scan: Copilot CLI and Qwen Code', () => {
  let home: string;
  const copilot = 'c98425e3-efd3-40a4-87ee-efc86b3ac039';
  const qwen = 'f2726f30-fca7-4df4-a78c-a4501b271253';
  before(() => {
    home = tempHome();
    const state = join(home, '.copilot', 'session-state', copilot);
    write(join(state, 'events.jsonl'), copilotEvents(copilot));
    // beside it Copilot keeps snapshots of the files the session touched: no transcripts
    write(join(state, 'files', 'package.json'), ['{"name":"shop"}']);
    write(join(state, 'workspace.yaml'), ['cwd: /home/dev/shop']);
    const project = join(home, '.qwen', 'projects', '-home-dev-billing');
    write(join(project, 'chats', `${qwen}.jsonl`), qwenChat(qwen));
    write(
      join(project, 'subagents', qwen, 'agent-general-purpose-call_9.jsonl'),
      qwenChat(qwen, 2).map((l) =>
        JSON.stringify({
          ...JSON.parse(l),
          agentId: 'general-purpose-call_9',
          agentName: 'general-purpose',
          provenance: undefined,
        }),
      ),
    );
    write(join(project, 'subagents', qwen, 'agent-general-purpose-call_9.meta.json'), [
      '{"agentId":"general-purpose-call_9","parentSessionId":"x"}',
    ]);
  });

  it('finds both in their folders, with their subagents, and the loops in them', () => {
    const r = scan(['--json'], { HOME: home });
    assert.equal(r.code, 0, r.err);
    const by = Object.fromEntries(
      r.out
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l))
        .map((s) => [s.session, s]),
    );
    assert.deepEqual(Object.keys(by).sort(), [qwen, copilot].sort());

    const c = by[copilot];
    assert.equal(c.agent, 'copilot');
    assert.equal(c.project, 'shop');
    // six npm test runs, the task call and the subagent's read
    assert.equal(c.calls, 8);
    assert.deepEqual(
      c.stalls.map((s: { step: number; loop: string }) => [s.step, s.loop]),
      [[4, '`bash npm test` x5']],
    );
    assert.deepEqual(
      c.stalls[0].tokens,
      { input: 6000, output: 240, cacheWrite: 0, cacheRead: 12000 },
      'six responses, the cached part of their input apart',
    );

    const q = by[qwen];
    assert.equal(q.agent, 'qwen');
    assert.equal(q.project, 'billing');
    assert.equal(q.subagentFiles, 1, 'the subagent transcript, and not its .meta.json');
    assert.equal(q.calls, 6 + 2);
    assert.deepEqual(
      q.stalls.map((s: { step: number; loop: string }) => [s.step, s.loop]),
      [[4, '`run_shell_command npm test` x5']],
    );
  });
});
