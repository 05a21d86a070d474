import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG } from '../src/config/defaults.ts';
import { foldThrough, type LogLine, parseLine } from '../src/store/session-log.ts';
import { claude, type HookRun, runCli, runHookProcess, scratch, startHook } from './support/hook-process.ts';

// Claude Code runs the hooks of parallel tool calls at once, and background subagents run beside the main
// agent, so many hook processes of one session share its log. No locks: each appends one line and folds.

type Actor = { id: string; type: string } | undefined;
const ACTORS: Actor[] = [
  undefined,
  { id: 'a1', type: 'Explore' },
  { id: 'a2', type: 'general-purpose' },
  { id: 'a3', type: 'Plan' },
];
const FAIL = '> proj@1.0.0 test\n1 passed, 1 failed';

/** Every kind of tool event, for each actor, each call told apart by its short form. */
function mixedPayloads(
  project: string,
  perKind: number,
): { payload: object; short?: string; kind: string; actor: string }[] {
  const out: { payload: object; short?: string; kind: string; actor: string }[] = [];
  for (const agent of ACTORS) {
    const who = agent?.id ?? 'main';
    for (let i = 0; i < perKind; i++) {
      out.push({
        kind: 'pre',
        actor: who,
        short: `Read ${who}-pre-${i}.ts`,
        payload: claude.pre(project, 'Read', { file_path: `${project}/${who}-pre-${i}.ts` }, undefined, agent),
      });
      out.push({
        kind: 'call',
        actor: who,
        short: `Read ${who}-post-${i}.ts`,
        payload: claude.post(
          project,
          'Read',
          { file_path: `${project}/${who}-post-${i}.ts` },
          { type: 'text', file: { content: `c${i}` } },
          undefined,
          agent,
        ),
      });
      out.push({
        kind: 'call',
        actor: who,
        short: `Bash npm test -- --shard=${who}-${i}`,
        payload: claude.failure(project, `npm test -- --shard=${who}-${i}`, FAIL, undefined, agent),
      });
      out.push({ kind: 'batch', actor: who, payload: claude.batch(project, undefined, agent) });
    }
  }
  return out;
}

function logLines(home: string): { text: string; line: LogLine | undefined }[] {
  return readFileSync(join(home, 'sessions', 'sess-1.jsonl'), 'utf8')
    .split('\n')
    .filter((t) => t.length > 0)
    .map((text) => ({ text, line: parseLine(text) }));
}

function observations(home: string): Extract<LogLine, { t: 'o' }>[] {
  return logLines(home)
    .map((l) => l.line)
    .filter((l): l is Extract<LogLine, { t: 'o' }> => l?.t === 'o');
}

function assertAnswered(r: HookRun, what: string): void {
  assert.equal(r.status, 0, what);
  if (r.stdout.trim()) assert.equal(typeof JSON.parse(r.stdout), 'object', what);
  assert.ok(!r.stdout.trim().includes('\n'), `${what}: one response`);
}

describe('many hook processes of one session at once', () => {
  it('64 processes (main and three subagents; pre, post, failure, batch): every observation once, every line whole, every call counted', async () => {
    const { project, env, home } = scratch('enforce');
    const sent = mixedPayloads(project, 4);
    assert.equal(sent.length, 64);
    const runs = await Promise.all(sent.map((s) => startHook(s.payload, env).done));
    for (const [i, r] of runs.entries()) assertAnswered(r, `process ${i}`);

    for (const { text, line } of logLines(home)) assert.deepEqual(line, JSON.parse(text), 'no line is torn or joined');
    const obs = observations(home);
    assert.equal(obs.length, sent.length);
    for (const s of sent.filter((x) => x.short)) {
      assert.equal(
        obs.filter((o) => o.o.step.k === s.kind && 'short' in o.o.step && o.o.step.short === s.short).length,
        1,
        s.short,
      );
    }
    for (const agent of ACTORS) {
      const who = agent?.id ?? 'main';
      assert.equal(obs.filter((o) => o.o.step.k === 'batch' && o.o.agent.id === who).length, 4, `${who} batches`);
    }
    const calls = sent.filter((s) => s.kind === 'call').length;
    assert.equal(
      foldThrough(join(home, 'sessions', 'sess-1.jsonl'), obs.at(-1)!.id, DEFAULT_CONFIG).state.totals.calls,
      calls,
    );
    assert.equal(JSON.parse(runCli(['status', '--json'], env, project).stdout).sessions[0].calls, calls);
    assert.equal(existsSync(join(home, 'errors.log')), false);
  });

  it('processes killed at random points never break, wedge or miscount the calls that come after', async () => {
    const { project, env, home } = scratch('enforce');
    // a large response makes each process spend longer between its start and its append, so kills land
    // before, during and after the write
    const big = 'x'.repeat(256 * 1024);
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const started = Array.from({ length: 40 }, (_, i) => {
      const run = startHook(
        claude.post(
          project,
          'Read',
          { file_path: `${project}/doomed-${i}.ts` },
          { type: 'text', file: { content: big + i } },
        ),
        env,
      );
      if (i % 4 !== 3) setTimeout(() => run.child.kill('SIGKILL'), Math.floor(random() * 2500));
      return run;
    });
    await Promise.all(started.map((s) => s.done));

    const after = Array.from({ length: 8 }, (_, i) =>
      claude.post(
        project,
        'Read',
        { file_path: `${project}/after-${i}.ts` },
        { type: 'text', file: { content: `a${i}` } },
      ),
    );
    for (const [i, payload] of after.entries())
      assertAnswered(runHookProcess(payload, env), `call ${i} after the kills`);

    const obs = observations(home);
    for (let i = 0; i < after.length; i++)
      assert.equal(
        obs.filter((o) => 'short' in o.o.step && o.o.step.short === `Read after-${i}.ts`).length,
        1,
        `after-${i} is in the log once`,
      );
    const survivors = obs.filter((o) => 'short' in o.o.step && o.o.step.short.startsWith('Read doomed-')).length;
    const state = foldThrough(join(home, 'sessions', 'sess-1.jsonl'), obs.at(-1)!.id, DEFAULT_CONFIG).state;
    assert.equal(
      state.totals.calls,
      survivors + after.length,
      'the folded state counts exactly the observations in the log',
    );
    assert.equal(
      existsSync(join(home, 'errors.log')),
      false,
      existsSync(join(home, 'errors.log')) ? readFileSync(join(home, 'errors.log'), 'utf8') : '',
    );
  });
});
