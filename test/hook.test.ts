import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claude, runCli, runHookProcess, scratch } from './support/hook-process.ts';
import { SEED_RULE } from './support/config.ts';
import { FIXTURES } from './support/hook.ts';

// The real hook process, fed the payload shapes Claude Code 2.1.197 sends.

const FAIL = '> proj@1.0.0 test\n> node test.js\n\nrunning tests\n1 passed, 1 failed';

function parse(stdout: string): Record<string, any> | undefined {
  return stdout.trim() ? JSON.parse(stdout) : undefined;
}

// The seed rule's exact counts make these easy to read; the judge has its own test below.

describe('hook process, enforce mode', () => {
  it('nudges a looping npm test, then stops it through PostToolBatch and denies the next call', () => {
    const { project, env } = scratch('enforce', SEED_RULE);
    runHookProcess(claude.prompt(project), env);
    const out: (Record<string, any> | undefined)[] = [];
    for (let i = 0; i < 10; i++) {
      runHookProcess(claude.pre(project, 'Bash', { command: 'npm test', description: 'Run tests' }), env);
      out.push(parse(runHookProcess(claude.failure(project, 'npm test', FAIL), env).stdout));
      if (i < 9) assert.equal(runHookProcess(claude.batch(project), env).stdout, '');
    }
    assert.deepEqual(out.slice(0, 4), [undefined, undefined, undefined, undefined]);
    const nudge = out[4]!.hookSpecificOutput;
    assert.equal(nudge.hookEventName, 'PostToolUseFailure');
    assert.match(nudge.additionalContext, /`Bash npm test` x5 \(same failure\)/);
    assert.deepEqual(out.slice(5, 9), [undefined, undefined, undefined, undefined]);
    // Claude Code ignores continue:false on PostToolUseFailure: the batch that follows delivers it
    const batch = parse(runHookProcess(claude.batch(project), env).stdout)!;
    assert.equal(batch.continue, false);
    assert.equal(batch.stopReason, 'stall: `Bash npm test` x10 (same failure), twice in this task');
    const next = parse(runHookProcess(claude.pre(project, 'Read', { file_path: `${project}/test.js` }), env).stdout)!;
    assert.equal(next.hookSpecificOutput.permissionDecision, 'deny');
    assert.equal(next.continue, false);
  });

  it('stops directly from PostToolUse when the looping call succeeds', () => {
    const { project, env } = scratch('enforce', SEED_RULE);
    runHookProcess(claude.prompt(project), env);
    let last: Record<string, any> | undefined;
    for (let i = 0; i < 10; i++)
      last = parse(
        runHookProcess(
          claude.post(
            project,
            'Read',
            { file_path: `${project}/a.ts` },
            { type: 'text', file: { filePath: `${project}/a.ts`, content: 'same' } },
          ),
          env,
        ).stdout,
      );
    assert.equal(last!.continue, false);
    assert.match(last!.stopReason, /^stall: `Read a\.ts` x10 \(same result\), twice in this task$/);
  });

  it('sees a call that succeeds at the end of its batch, which lists it with its result: no PostToolUse needed', () => {
    const { project, env } = scratch('enforce', SEED_RULE);
    runHookProcess(claude.prompt(project), env);
    const input = { file_path: `${project}/a.ts` };
    const out = Array.from({ length: 5 }, (_, i) => {
      runHookProcess(claude.pre(project, 'Read', input), env);
      const read = { tool_name: 'Read', tool_input: input, tool_use_id: `toolu_r${i}`, tool_response: '1\tsame' };
      return parse(runHookProcess(claude.batch(project, undefined, undefined, [read]), env).stdout);
    });
    assert.deepEqual(out.slice(0, 4), [undefined, undefined, undefined, undefined]);
    assert.equal(out[4]!.hookSpecificOutput.hookEventName, 'PostToolBatch');
    assert.match(out[4]!.hookSpecificOutput.additionalContext, /`Read a\.ts` x5 \(same result\)/);
  });

  it('counts a call once when its own event reported it and its batch lists it again', () => {
    const { project, env, home } = scratch('enforce', SEED_RULE);
    runHookProcess(claude.prompt(project), env);
    const input = { file_path: `${project}/a.ts` };
    const content = { type: 'text', file: { filePath: `${project}/a.ts`, content: 'same' } };
    const out = Array.from({ length: 5 }, (_, i) => {
      // a failure comes on its own, and an install of before this layout also sends PostToolUse for a success
      const failure = parse(runHookProcess(claude.failure(project, 'npm test', FAIL), env).stdout);
      const success = parse(runHookProcess(claude.post(project, 'Read', input, content), env).stdout);
      const listed = [
        { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_use_id: 'toolu_y', tool_response: FAIL },
        { tool_name: 'Read', tool_input: input, tool_use_id: 'toolu_z', tool_response: '1\tsame' },
      ];
      const batch = parse(runHookProcess(claude.batch(project, undefined, undefined, listed), env).stdout);
      return [i, failure?.hookSpecificOutput?.hookEventName, success?.hookSpecificOutput?.hookEventName, batch];
    });
    // counted twice, the pair would cycle five times by the third batch; counted once, by the fifth
    assert.deepEqual(
      out.slice(0, 4),
      [0, 1, 2, 3].map((i) => [i, undefined, undefined, undefined]),
    );
    assert.equal(out[4]![2], 'PostToolUse');
    // the batch's end found both calls in the log's tail: not even a line of the ledger for them again
    const ledger = readFileSync(join(home, 'sessions', 'sess-1.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean);
    assert.equal(ledger.filter((l) => JSON.parse(l).o?.step?.k === 'call').length, 10);
  });

  it('nudges with the judge on the third identical failing run', () => {
    const { project, env } = scratch('enforce');
    runHookProcess(claude.prompt(project), env);
    const out = Array.from({ length: 3 }, () =>
      parse(runHookProcess(claude.failure(project, 'npm test', FAIL), env).stdout),
    );
    assert.deepEqual(out.slice(0, 2), [undefined, undefined]);
    assert.match(out[2]!.hookSpecificOutput.additionalContext, /`Bash npm test` x3 \(same failure\)/);
  });

  it('denies the 11th round of spawns in a task with a reason for the agent', () => {
    const { project, env } = scratch('enforce');
    runHookProcess(claude.prompt(project), env);
    // one subagent a response: each batch's end closes a round
    const outs = Array.from({ length: 11 }, (_, i) => {
      const input = { subagent_type: 'general-purpose', description: `d${i}`, prompt: `p${i}` };
      const out = runHookProcess(claude.pre(project, 'Agent', input), env).stdout;
      runHookProcess(claude.batch(project), env);
      return out;
    });
    assert.deepEqual(outs.slice(0, 10), Array(10).fill(''));
    const deny = parse(outs[10]!)!.hookSpecificOutput;
    assert.equal(deny.permissionDecision, 'deny');
    assert.match(deny.permissionDecisionReason, /limit is 10/);
  });

  it("denies an edit of .claude/settings.local.json that takes stallguard's hooks out, allows one beside them", () => {
    const { project, env } = scratch('enforce');
    assert.equal(runCli(['install'], env, project).status, 0);
    const settings = `${project}/.claude/settings.local.json`;
    const out = parse(
      runHookProcess(
        claude.pre(project, 'Edit', { file_path: settings, old_string: '"hooks"', new_string: '"x"' }),
        env,
      ).stdout,
    )!;
    assert.equal(out.hookSpecificOutput.permissionDecision, 'deny');
    assert.match(
      out.hookSpecificOutput.permissionDecisionReason,
      /stallguard's own entries in \S+\/\.claude\/settings\.local\.json.*run `stallguard uninstall --agent claude`/,
    );
    assert.equal(
      runHookProcess(
        claude.pre(project, 'Edit', { file_path: settings, old_string: '{', new_string: '{\n  "model": "opus",' }),
        env,
      ).stdout,
      '',
    );
  });
});

describe('hook process, shadow and off', () => {
  it('shadow mode changes nothing in the agent and records what it would have done', () => {
    const { project, env, home } = scratch('shadow', SEED_RULE);
    runHookProcess(claude.prompt(project), env);
    for (let i = 0; i < 10; i++)
      assert.equal(runHookProcess(claude.failure(project, 'npm test', FAIL), env).stdout, '');
    assert.equal(runHookProcess(claude.batch(project), env).stdout, '');
    assert.equal(
      runHookProcess(claude.pre(project, 'Edit', { file_path: `${project}/.stallguard.json` }), env).stdout,
      '',
    );
    const status = JSON.parse(runCli(['status', '--json'], { ...env, STALLGUARD_HOME: home }, project).stdout);
    assert.equal(status.mode, 'shadow');
    assert.deepEqual(
      status.sessions.map((s: any) => [s.id, s.calls, s.stalls]),
      [['sess-1', 10, 2]],
    );
    const ledger = readFileSync(join(home, 'sessions', 'sess-1.jsonl'), 'utf8');
    assert.match(ledger, /"action":"stop".*"mode":"shadow"/);
    assert.match(ledger, /"code":"SELF_PROTECT"/);
  });

  it('off records nothing and does nothing', () => {
    const { project, env, home } = scratch('off');
    for (let i = 0; i < 6; i++) assert.equal(runHookProcess(claude.failure(project, 'npm test', FAIL), env).stdout, '');
    assert.equal(existsSync(join(home, 'sessions')), false);
    const viaEnv = scratch();
    runHookProcess(claude.failure(viaEnv.project, 'npm test', FAIL), { ...viaEnv.env, STALLGUARD_MODE: 'off' });
    assert.equal(existsSync(join(viaEnv.home, 'sessions')), false);
  });
});

describe('hook process fails open', () => {
  const cases: [string, string][] = [
    ['garbage', 'this is not json {'],
    ['a JSON array', '[1,2,3]'],
    ['an unknown event', JSON.stringify({ hook_event_name: 'MessageDisplay', session_id: 's' })],
    ['no session id', JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash' })],
    [
      'wrong types',
      JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 7, tool_name: ['Bash'], tool_input: 'x' }),
    ],
    [
      'a 10 MB string',
      JSON.stringify({
        hook_event_name: 'PostToolUse',
        session_id: 's',
        tool_name: 'Bash',
        tool_input: { command: 'x'.repeat(10 << 20) },
        tool_response: {},
      }),
    ],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString('latin1')],
    ['empty stdin', ''],
  ];
  for (const [name, input] of cases) {
    it(`exits 0 with nothing on stdout for ${name}`, () => {
      const { env } = scratch('enforce');
      const r = runHookProcess(input, env);
      assert.equal(r.status, 0);
      assert.equal(r.stdout, '');
    });
  }

  it('logs what went wrong under STALLGUARD_HOME', () => {
    const { env, home } = scratch('enforce');
    runHookProcess('not json', env);
    assert.match(readFileSync(join(home, 'errors.log'), 'utf8'), /hook: stdin is not JSON/);
  });

  it('allows when the state cannot be written (STALLGUARD_HOME is a file)', () => {
    const { project, env, dir } = scratch('enforce');
    const file = join(dir, 'not-a-dir');
    writeFileSync(file, 'x');
    const r = runHookProcess(claude.failure(project, 'npm test', FAIL), { ...env, STALLGUARD_HOME: file });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '');
  });

  it('answers every real Claude Code sample payload with nothing or one JSON object', () => {
    const dir = FIXTURES;
    const samples = readdirSync(dir).filter((f) => /^claude-[A-Za-z]+(?:-[A-Za-z]+)*\.json$/.test(f));
    assert.ok(samples.length >= 15, `found ${samples.length} samples`);
    const { env } = scratch('enforce');
    for (const f of samples) {
      const r = runHookProcess(readFileSync(join(dir, f), 'utf8'), env);
      assert.equal(r.status, 0, f);
      if (r.stdout.trim()) assert.doesNotThrow(() => JSON.parse(r.stdout), f);
    }
  });
});

describe('the ledger', () => {
  it('holds short forms and digests, never raw outputs or secrets, in 0600 files under a 0700 folder', () => {
    const { project, env, home } = scratch('enforce');
    const secretOutput =
      'Error: auth failed for token sk-ant-api03-abcdefghijklmnopqrstuvwx\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY';
    for (let i = 0; i < 5; i++)
      runHookProcess(
        claude.failure(project, 'curl -u admin:hunter2 https://api.example.com --password hunter2', secretOutput),
        env,
      );
    const file = join(home, 'sessions', 'sess-1.jsonl');
    const ledger = readFileSync(file, 'utf8');
    for (const secret of ['hunter2', 'sk-ant-api03', 'wJalrXUtnFEMIK7MDENG', 'auth failed'])
      assert.equal(ledger.includes(secret), false, secret);
    assert.match(ledger, /Bash curl/);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(home, 'sessions')).mode & 0o777, 0o700);
  });
});
