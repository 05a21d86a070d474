import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../src/config/defaults.ts';
import { observation } from '../src/engine/step.ts';
import type { Event, Observation } from '../src/types.ts';
import { type LogLine, SEGMENT_BYTES } from '../src/store/session-log.ts';
import { foldLatest, observeInLog, sessionLog, sessionSegments } from '../src/store/segments.ts';
import { claude, runCli, scratch, startHook } from './support/hook-process.ts';

// The real hook, 50 processes at once across ten subagents, while the session's log passes the size at
// which it is sealed and goes on in a new segment: no observation is lost or counted twice.

function seed(file: string, project: string): number {
  const meta = { t: 'm' as const, session: 'sess-1', agent: 'claude' as const, time: Date.now() };
  let calls = 0;
  while (!existsSync(file) || statSync(file).size < SEGMENT_BYTES - 24 * 1024) {
    const event: Event = {
      kind: 'post-tool',
      session: 'sess-1',
      agent: { id: 'main' },
      cwd: project,
      time: Date.now(),
      call: { name: 'Read', input: { file_path: `${project}/seed-${calls}.ts` } },
      output: `s${calls}`,
      ok: true,
    };
    const obs: Observation = observation(event, {
      cwd: project,
      home: '/nowhere',
      stallguardHome: '/nowhere/.stallguard',
    });
    observeInLog(file, obs, DEFAULT_CONFIG, meta);
    calls++;
  }
  return calls;
}

describe('a session log sealed while many hooks write it', () => {
  it('50 hook processes across ten subagents, through a seal: every call once, none lost', async () => {
    const { project, env, home } = scratch('enforce');
    const file = join(home, 'sessions', 'sess-1.jsonl');
    const seeded = seed(file, project);
    assert.equal(sessionSegments(file).length, 1);
    const sent = Array.from({ length: 50 }, (_, i) =>
      claude.post(
        project,
        'Read',
        { file_path: `${project}/agent${i % 10}-${i}.ts` },
        { type: 'text', file: { content: `c${i}` } },
        undefined,
        { id: `agent-${i % 10}`, type: 'reviewer' },
      ),
    );
    const runs = await Promise.all(sent.map((p) => startHook(p, env).done));
    for (const [i, r] of runs.entries()) assert.equal(r.status, 0, `process ${i}: ${r.stderr}`);
    assert.equal(
      existsSync(join(home, 'errors.log')),
      false,
      existsSync(join(home, 'errors.log')) ? readFileSync(join(home, 'errors.log'), 'utf8') : '',
    );

    assert.equal(sessionSegments(file).length, 2, 'the log went on in a second segment');
    const shorts = [...sessionLog(file)].flatMap((l: LogLine | undefined) =>
      l?.t === 'o' && l.o.step.k === 'call' ? [l.o.step.short] : [],
    );
    for (let i = 0; i < 50; i++)
      assert.equal(shorts.filter((s) => s === `Read agent${i % 10}-${i}.ts`).length, 1, `call ${i} once`);
    assert.equal(shorts.length, seeded + 50);
    assert.equal(
      foldLatest(file, DEFAULT_CONFIG).state.totals.calls,
      seeded + 50,
      'the state the next hook folds counts them all',
    );
    assert.equal(JSON.parse(runCli(['status', '--json'], env, project).stdout).sessions[0].calls, seeded + 50);
  });
});
