import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeTranscript, codexRollout, geminiChat, tempHome, write } from './support/histories.ts';
import { SEED_CWD } from './support/histories.ts';

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js');

function scan(args: string[], env: Record<string, string>) {
  const e: NodeJS.ProcessEnv = { PATH: process.env.PATH, ...env };
  const r = spawnSync(process.execPath, [CLI, 'scan', ...args], { env: e, encoding: 'utf8', cwd: SEED_CWD });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("stallguard scan over the agents' own history", () => {
  let home: string;
  let alt: string;
  before(() => {
    home = tempHome();
    alt = tempHome();
    const project = join(home, '.claude', 'projects', '-home-dev-proj');
    write(join(project, 'sess-a.jsonl'), claudeTranscript('sess-a'));
    // a corrupt line in the middle and a line cut short at the end: counted, skipped, never fatal
    appendFileSync(join(project, 'sess-a.jsonl'), 'not json at all\n{"type":"assistant","message":{"id":"m');
    write(
      join(project, 'sess-a', 'subagents', 'agent-a1.jsonl'),
      claudeTranscript('sess-a', { agentId: 'a1', repeats: 5 }),
    );
    write(
      join(alt, 'projects', '-home-dev-other', 'sess-b.jsonl'),
      claudeTranscript('sess-b', { repeats: 2, cwd: '/home/dev/other' }),
    );
    write(
      join(home, '.codex', 'sessions', '2026', '11', '29', 'rollout-2026-11-29T20-27-23-01a228fd.jsonl'),
      codexRollout('01a228fd'),
    );
    write(
      join(home, '.gemini', 'tmp', 'f00d', 'chats', 'session-2026-11-29T20-29-333faa51.jsonl'),
      geminiChat('333faa51-b528-40d3-b0b1-68d9db6bbb50'),
    );
  });

  it("finds every agent's sessions, reports each with its stalls and what they cost", () => {
    const r = scan(['--json'], { HOME: home, CLAUDE_CONFIG_DIR: `/nonexistent:${alt}` });
    assert.equal(r.code, 0, r.err);
    const sessions = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const by = Object.fromEntries(sessions.map((s) => [s.session, s]));
    assert.deepEqual(Object.keys(by).sort(), ['01a228fd', '333faa51-b528-40d3-b0b1-68d9db6bbb50', 'sess-a', 'sess-b']);

    const a = by['sess-a'];
    assert.equal(a.agent, 'claude');
    assert.equal(a.calls, 7 + 6, "the main agent's calls and the subagent's");
    assert.equal(a.subagentFiles, 1);
    assert.equal(a.skippedLines, 2);
    assert.deepEqual(
      a.stalls.map((s: { step: number; action: string; agent: string }) => [s.step, s.action, s.agent]),
      [
        [5, 'nudge', 'main'],
        [5, 'nudge', 'a1'],
      ],
    );
    const main = a.stalls[0];
    assert.deepEqual(
      [main.from, main.to, main.calls, main.loop, main.after],
      [1, 6, 6, '`Bash npm test` x5', 'repeated'],
    );
    assert.equal(main.signals[0].code, 'REPEAT', 'the signal that named the loop comes first');
    // six responses of 10 input, 100 output (the final count, not the partial 2), 1,000 cache writes, 20,000 cache reads
    assert.deepEqual(main.tokens, { input: 60, output: 600, cacheWrite: 6000, cacheRead: 120000 });
    // Opus 4.6: $5, $25, $6.25 and $0.50 per million
    assert.ok(Math.abs(main.cost - (60 * 5 + 600 * 25 + 6000 * 6.25 + 120000 * 0.5) / 1e6) < 1e-9);
    assert.ok(a.stalls[1].file.endsWith('agent-a1.jsonl'));
    assert.equal(a.inside.calls, 6 + 5);
    assert.equal(a.stalls[1].tokens.output, 500, "the subagent's own responses");

    assert.deepEqual(by['sess-b'].stalls, [], 'found through CLAUDE_CONFIG_DIR');
    assert.equal(by['sess-b'].project, 'other');

    const codex = by['01a228fd'];
    assert.equal(codex.agent, 'codex');
    assert.deepEqual(
      codex.stalls.map((s: { step: number; loop: string }) => [s.step, s.loop]),
      [[4, '`Bash npm test` x5']],
    );
    assert.deepEqual(codex.stalls[0].tokens, { input: 6000, output: 300, cacheWrite: 0, cacheRead: 24000 });

    const gemini = by['333faa51-b528-40d3-b0b1-68d9db6bbb50'];
    assert.equal(gemini.agent, 'gemini');
    assert.equal(gemini.calls, 6);
    assert.equal(gemini.project, 'f00d', "the folder Gemini CLI files the project's chats under");
    assert.deepEqual(
      gemini.stalls.map((s: { step: number; calls: number }) => [s.step, s.calls]),
      [[4, 6]],
    );
  });

  it('prints totals for a person, and counts what it skipped', () => {
    const r = scan([], { HOME: home, CLAUDE_CONFIG_DIR: alt });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /4 sessions scanned \(claude 2, codex 1, gemini 1\): 28 tool calls/);
    assert.match(r.out, /3 sessions with stalls: 4 interventions \(4 nudges\)/);
    assert.match(r.out, /Inside stalls: 23 calls \(82\.1% of all\)/);
    assert.match(r.out, /2 unreadable lines skipped/);
    assert.equal(r.err, '', 'no progress bar when stderr is not a terminal');
  });

  it('replays the bundled example when there is no history, and says so', () => {
    const r = scan([], { HOME: tempHome() });
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /No agent history found on this machine/);
    assert.match(r.out, /13 calls · 2 stalls/);
    // calls counted from 1 for a person: the nudge comes with the sixth call (step 5 in --json)
    assert.match(r.out, /call 6 +nudge +`Bash npm test` x5/);
    assert.match(r.out, /call 12 +stop/);
  });

  it('with --json and no history, prints no session: the bundled example is not one of this machine', () => {
    const r = scan(['--json'], { HOME: tempHome() });
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '');
    assert.match(
      r.err,
      /^stallguard scan: no agent history found on this machine .*; nothing to report\. `stallguard scan` without --json shows a bundled example\.\n$/,
    );
  });

  it('replay tells the bundled example as scan does: as many calls, counted from 1, and where it stopped', () => {
    const example = join(import.meta.dirname, '..', 'examples', 'looping-session.jsonl');
    const json = scan(['--json', example], { HOME: tempHome() });
    const stalls = (JSON.parse(json.out) as { stalls: { step: number; action: string }[] }).stalls;
    const r = spawnSync(process.execPath, [CLI, 'replay', example], {
      env: { PATH: process.env.PATH, HOME: tempHome() },
      encoding: 'utf8',
      cwd: SEED_CWD,
    });
    assert.equal(r.status, 0, r.stderr);
    const stop = stalls.find((s) => s.action === 'stop')!;
    const calls = (JSON.parse(json.out) as { calls: number }).calls;
    assert.match(
      r.stdout,
      new RegExp(
        `^.*looping-session\\.jsonl \\(claude-transcript, ${calls} calls, stopped at call ${stop.step + 1}\\)\n`,
      ),
    );
    for (const s of stalls) assert.match(r.stdout, new RegExp(`^  call ${s.step + 1} +${s.action} `, 'm'));
    assert.doesNotMatch(r.stdout, /step/);
  });

  it('names a missing path in one line, without a stack trace', () => {
    const r = scan(['/no/such/place'], { HOME: home });
    assert.equal(r.code, 1);
    assert.equal(r.err.trim(), 'stallguard scan: /no/such/place: no such file or folder');
  });
});
