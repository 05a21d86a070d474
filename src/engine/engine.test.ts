import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SEED_RULE } from '../../test/support/config.ts';
import { Session, times } from '../../test/support/session.ts';
import type { DetectorConfig } from '../library/detector.ts';
import { DEFAULT_CONFIG } from '../config/defaults.ts';
import { regex } from '../core/regex.ts';

const FAIL = '> proj@1.0.0 test\n> node test.js\n\nrunning tests\n1 passed, 1 failed';
/** A file's text that no other file of a test holds: six functions named after it. */
const code = (name: string) =>
  Array.from({ length: 6 }, (_, i) => `def ${name}_${i}(x):\n    return x + ${i}`).join('\n');
// The seed rule on its own, as the deterministic floor it is: the judge is switched off here.

describe('the stall rule (the deterministic floor)', () => {
  it('nudges on the fifth identical failing run, naming the call', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    const d = times(5, () => s.bash('npm test', FAIL, false));
    assert.deepEqual(
      d.slice(0, 4).map((x) => x.action),
      ['allow', 'allow', 'allow', 'allow'],
    );
    assert.equal(d[4]!.action, 'nudge');
    assert.match(d[4]!.message!, /`Bash npm test` x5 \(same failure\)/);
    assert.match(d[4]!.message!, /did not change/);
    assert.equal(d[4]!.signals[0]!.code, 'REPEAT');
    assert.equal(d[4]!.signals[0]!.value, 5);
    assert.equal(d[4]!.span, 5, 'the loop covers the five runs');
  });

  it('stops on the second stall in the task, and keeps the agent stopped', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    times(5, () => s.bash('npm test', FAIL, false));
    const second = times(5, () => s.bash('npm test', FAIL, false));
    assert.equal(second[4]!.action, 'stop');
    // the real count in the task, though the window started afresh after the nudge: ten runs, not five
    assert.equal(second[4]!.stopReason, 'stall: `Bash npm test` x10 (same failure), twice in this task');
    // the window started afresh after the nudge: calls 6-9 were not a stall
    assert.deepEqual(
      second.slice(0, 4).map((x) => x.action),
      ['allow', 'allow', 'allow', 'allow'],
    );
    const batch = s.batch();
    assert.equal(batch.action, 'stop');
    assert.equal(batch.repeat, true);
    const next = s.pre('Read', { file_path: '/home/dev/proj/test.js' });
    assert.equal(next.action, 'stop');
  });

  it('calls the person in for a loop the agent goes back to, not for stalls each about something else', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    const stallOn = (command: string) => times(5, () => s.bash(command, FAIL, false)).at(-1)!.action;
    // three stalls, each on another command: each is nudged, none stops the agent
    assert.deepEqual(['npm test', 'npm run lint', 'npm run build'].map(stallOn), ['nudge', 'nudge', 'nudge']);
    // back to the first loop: the person is called in
    assert.equal(stallOn('npm test'), 'stop');
  });

  it('denies the very next call when it repeats the loop just flagged, and only that one', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    times(5, () => s.bash('npm test', FAIL, false));
    const again = s.pre('Bash', { command: 'npm test' });
    assert.equal(again.action, 'deny');
    assert.match(again.message!, /repeats the loop flagged just before/);
    const other = new Session(SEED_RULE);
    other.prompt();
    times(5, () => other.bash('npm test', FAIL, false));
    assert.equal(other.pre('Read', { file_path: '/home/dev/proj/test.js' }).action, 'allow');
    assert.equal(other.pre('Bash', { command: 'npm test' }).action, 'allow');
  });

  it('treats a changing outcome as progress: polling whose answer changes is not a stall', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    const d = times(12, (i) => s.bash('curl -s localhost:8080/status', `{"state":"building","done":${i * 8}}`));
    assert.deepEqual(s.actions(), []);
    assert.equal(d.length, 12);
  });

  it('treats a test whose failures change as progress', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    times(6, (i) => s.bash('npm test', `${6 - i} failed, ${i} passed`, false));
    assert.deepEqual(s.actions(), []);
  });

  it('ignores volatile parts: durations, timestamps, temp paths, pids', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    times(5, (i) =>
      s.bash(
        'pytest -q',
        'FAILED tests/test_a.py::test_x - AssertionError\n' +
          `1 failed in 0.${i}3s at 2026-11-29T10:0${i}:00Z pid ${4000 + i} /tmp/pytest-${i}/x`,
        false,
      ),
    );
    assert.deepEqual(s.actions(), ['nudge']);
  });

  it('ignores the model-written description of a Bash call and the order of arguments', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    times(5, (i) =>
      s.call(
        'Bash',
        i % 2
          ? { command: 'npm test', description: `Run tests (${i})` }
          : { description: 'again', command: 'npm test' },
        'Exit code 1\nsame',
        false,
      ),
    );
    assert.deepEqual(s.actions(), ['nudge']);
  });

  it('finds a cycle of two calls repeated five times (edit, test, same failure)', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    for (let i = 0; i < 5; i++) {
      s.call(
        'Edit',
        { file_path: '/home/dev/proj/src/billing.ts', old_string: 'a - b', new_string: 'a + b' },
        'String to replace not found',
        false,
      );
      s.bash('npm test', FAIL, false);
    }
    assert.deepEqual(s.actions(), ['nudge']);
    const nudge = s.decisions.find((d) => d.action === 'nudge')!;
    assert.match(nudge.message!, /`Edit src\/billing\.ts` → `Bash npm test` x5/);
    assert.ok(nudge.signals.some((x) => x.code === 'CYCLE' && x.value === 5));
    assert.equal(nudge.span, 10, 'five rounds of two calls');
  });

  it("counts a call once though its own event and its batch's list both report it", () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    for (let i = 0; i < 4; i++) {
      s.outcome('Bash', { command: 'npm test' }, `Exit code 1\n${FAIL}`, `toolu_${i}`, false, false);
      s.outcome('Bash', { command: 'npm test' }, `Exit code 1\n${FAIL}`, `toolu_${i}`, true);
      s.batch();
    }
    assert.deepEqual(s.actions(), []);
    assert.equal(s.state.totals.calls, 4);
    // a call only its batch's list reports is observed from there: the fifth run, and the floor's nudge
    s.outcome('Bash', { command: 'npm test' }, `Exit code 1\n${FAIL}`, 'toolu_4', true);
    assert.equal(s.state.totals.calls, 5);
    assert.deepEqual(s.actions(), ['nudge']);
  });

  it('starts afresh on a new prompt: four repeats, a new prompt, four more is not a stall', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    times(4, () => s.bash('npm test', FAIL, false));
    s.prompt('try again with the new fixture');
    times(4, () => s.bash('npm test', FAIL, false));
    assert.deepEqual(s.actions(), []);
  });

  it('counts stalls per task: a stall in each of two tasks only nudges', () => {
    const s = new Session(SEED_RULE);
    s.prompt('one', 'p1');
    times(5, () => s.bash('npm test', FAIL, false));
    s.prompt('two', 'p2');
    times(5, () => s.bash('npm test', FAIL, false));
    assert.deepEqual(s.actions(), ['nudge', 'nudge']);
  });

  it('starts a new task when the prompt id changes even if the prompt hook was missed', () => {
    const s = new Session(SEED_RULE);
    s.task = 'p1';
    times(3, () => s.bash('npm test', FAIL, false));
    s.task = 'p2';
    times(3, () => s.bash('npm test', FAIL, false));
    assert.deepEqual(s.actions(), []);
    times(2, () => s.bash('npm test', FAIL, false));
    assert.deepEqual(s.actions(), ['nudge']);
  });

  it('never counts an exempt tool', () => {
    const s = new Session({ ...SEED_RULE, exemptTools: ['BashOutput'] });
    s.prompt();
    times(8, () => s.call('BashOutput', { bash_id: 'b1' }, 'still running'));
    assert.deepEqual(s.actions(), []);
  });

  it('honours configured thresholds', () => {
    const s = new Session({ ...SEED_RULE, repeat: 3, stopAfterStalls: 1 });
    s.prompt();
    times(3, () => s.bash('make', 'error: x', false));
    assert.deepEqual(s.actions(), ['stop']);
  });

  it('takes per-signal levels over the shipped judge: one lower, others off (as tune writes them)', () => {
    const readAgain = (settings: DetectorConfig) => {
      const s = new Session(settings);
      s.prompt();
      times(6, () => s.call('Read', { file_path: '/home/dev/proj/a.ts' }, 'export const a = 1;'));
      return s.timeline.join(' ');
    };
    // the signals a re-read of one file raises, off unless a case sets them; the other signals stay as shipped
    const off = { REPEAT: null, REREAD: null, NEAR_DUPLICATE: null, SAME_OUTCOME: null };
    // repeats a stall from four on, and from two on: the fourth read, the second
    assert.match(readAgain({ judge: { levels: { ...off, REPEAT: 4 } } }), /^nudge@4/);
    assert.match(readAgain({ judge: { levels: { ...off, REPEAT: 2 } } }), /^nudge@2/);
    // none of them weighed: only the seed rule's five identical calls
    assert.match(readAgain({ judge: { levels: off } }), /^nudge@5/);
  });
});

describe('hard negatives: healthy work is never touched', () => {
  it('test-driven cycles: edit, the test fails differently, edit, the test passes', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 8; i++) {
      s.call(
        'Edit',
        { file_path: '/home/dev/proj/src/a.ts', old_string: `v${i}`, new_string: `v${i + 1}` },
        { filePath: '/home/dev/proj/src/a.ts', ok: i },
      );
      s.bash('npm test', i < 7 ? `${7 - i} failed` : 'all passed', i < 7 ? false : true);
    }
    assert.deepEqual(s.actions(), []);
  });

  it('the same edit over 20 files', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 20; i++)
      s.call(
        'Edit',
        { file_path: `/home/dev/proj/src/m${i}.ts`, old_string: 'oldName', new_string: 'newName' },
        { filePath: `/home/dev/proj/src/m${i}.ts` },
      );
    assert.deepEqual(s.actions(), []);
  });

  it('exploration: reading and searching many different things', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 24; i++) {
      if (i % 3 === 0) s.call('Grep', { pattern: `symbol${i}`, path: 'src' }, `src/f${i}.ts:3: symbol${i}`);
      else s.call('Read', { file_path: `/home/dev/proj/src/f${i}.ts` }, `contents of ${i}`);
    }
    assert.deepEqual(s.actions(), []);
  });

  it('a folder listed empty three ways while the reads around it each tell something new: exploring', () => {
    const s = new Session();
    s.prompt();
    s.call('Read', { file_path: '/home/dev/proj/api/models/skill.py' }, code('skill'));
    s.bash('find /home/dev/proj/packages/skills -type f -name "*.py" | head -20', '');
    s.call('Read', { file_path: '/home/dev/proj/api/models/user.py' }, code('user'));
    s.bash('find /home/dev/proj/packages/skills -type f -name "*.py" | sort', '');
    s.call('Read', { file_path: '/home/dev/proj/api/routes/auth.py' }, code('auth'));
    s.call('Read', { file_path: '/home/dev/proj/api/routes/billing.py' }, code('billing'));
    s.bash('find /home/dev/proj/packages/skills -type f -name "*.py"', '');
    assert.deepEqual(s.actions(), []);
    // the same three listings with nothing learnt around them are a loop
    const alone = new Session();
    alone.prompt();
    alone.bash('find /home/dev/proj/packages/skills -type f -name "*.py" | head -20', '');
    alone.bash('find /home/dev/proj/packages/skills -type f -name "*.py" | sort', '');
    alone.bash('find /home/dev/proj/packages/skills -type f -name "*.py"', '');
    assert.deepEqual(alone.actions(), ['nudge']);
  });

  it('re-reading a file after changing it', () => {
    const s = new Session();
    s.prompt();
    for (let i = 0; i < 6; i++) {
      s.call('Read', { file_path: '/home/dev/proj/src/a.ts' }, `version ${i}`);
      s.call('Edit', { file_path: '/home/dev/proj/src/a.ts', old_string: `v${i}`, new_string: `v${i + 1}` }, { ok: i });
    }
    assert.deepEqual(s.actions(), []);
  });

  it('paging through a file with distinct offsets (Roo R7, clearwing #106)', () => {
    const s = new Session();
    s.prompt();
    times(12, (i) =>
      s.call(
        'Read',
        { file_path: '/home/dev/proj/big.py', offset: i * 200, limit: 200 },
        `lines ${i * 200}-${i * 200 + 199}`,
      ),
    );
    assert.deepEqual(s.actions(), []);
  });

  it('an orchestrator spawning under the cap', () => {
    const s = new Session({ orchestrators: ['planner'] });
    s.prompt();
    times(5, (i) =>
      s.call('Agent', { subagent_type: 'planner', description: `part ${i}`, prompt: `do part ${i}` }, `done ${i}`),
    );
    times(5, (i) =>
      s.call(
        'Agent',
        { subagent_type: 'general-purpose', description: `sub ${i}`, prompt: `x${i}` },
        `done ${i}`,
        true,
        { id: 'p1', type: 'planner' },
      ),
    );
    assert.deepEqual(s.actions(), []);
  });

  it('repeats on both sides of a new prompt are not added up (the person stepped in)', () => {
    const s = new Session();
    s.prompt();
    times(2, () => s.bash('npm test', FAIL, false));
    s.prompt('I fixed the env, run it again');
    times(2, () => s.bash('npm test', FAIL, false));
    assert.deepEqual(s.actions(), []);
  });

  it('polling a build whose status changes, twenty times', () => {
    const s = new Session();
    s.prompt();
    times(20, (i) => s.bash('gh run view 123 --json status', `{"status":"in_progress","step":${i}}`));
    assert.deepEqual(s.actions(), []);
  });

  it('a test run that fails once, then a fix, then passes', () => {
    const s = new Session();
    s.prompt();
    s.bash('pytest -q', 'FAILED tests/test_a.py::test_x - AssertionError: 1 != 2', false);
    s.call(
      'Edit',
      { file_path: '/home/dev/proj/a.py', old_string: 'return 1', new_string: 'return 2' },
      { filePath: '/home/dev/proj/a.py' },
    );
    s.bash('pytest -q', '3 passed');
    assert.deepEqual(s.actions(), []);
  });
});

describe('subagents', () => {
  it('keeps a window per agent, so a looping subagent is nudged and stopped while main is untouched', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    const sub = { id: 'a219', type: 'general-purpose' };
    s.call('Agent', { subagent_type: 'general-purpose', description: 'run tests', prompt: 'run npm test' }, 'started');
    for (let i = 0; i < 10; i++) {
      s.bash('npm test', FAIL, false, sub);
      s.bash(`echo main ${i}`, `main ${i}`); // main agent keeps working in between
    }
    const subDecisions = s.decisions.filter((d) => d.action !== 'allow');
    // after the nudge the subagent's very next call repeats the loop, and is denied
    assert.deepEqual(
      subDecisions.map((d) => d.action),
      ['nudge', 'deny', 'stop'],
    );
    assert.equal(s.pre('Read', { file_path: '/home/dev/proj/x' }).action, 'allow');
    assert.equal(s.pre('Bash', { command: 'npm test' }, sub).action, 'stop');
  });
});

describe('the judge: loops the floor does not see', () => {
  it('three identical failing runs with nothing changed in between', () => {
    const s = new Session();
    s.prompt();
    const d = times(3, () => s.bash('npm test', FAIL, false));
    assert.equal(d[2]!.action, 'nudge');
    assert.match(
      d[2]!.message!,
      /the same call ran 3 times and the result did not change: `Bash npm test` x3 \(same failure\)/,
    );
    assert.ok(d[2]!.signals.some((x) => x.code === 'NO_TREE_CHANGE' && x.value === 3));
    assert.ok(
      d[2]!.signals.some((x) => x.code === 'JUDGE'),
      'the judge scored it too',
    );
  });

  it('retry variants failing the same way (pytest -q, pytest tests/, python -m pytest)', () => {
    const s = new Session();
    s.prompt();
    const out = 'FAILED tests/test_billing.py::test_total - AssertionError: assert 110 == 120\n1 failed, 4 passed';
    s.bash('pytest -q', out, false);
    s.bash('pytest tests/', out, false);
    s.bash('python -m pytest tests/test_billing.py', out.replace('4 passed', '0 passed'), false);
    s.bash('pytest -x -q tests', out, false);
    assert.deepEqual(s.actions(), ['nudge']);
    assert.ok(s.decisions.some((x) => x.signals.some((y) => y.code === 'SAME_FAILURE')));
    // the message names the varied calls that failed alike (the run whose counts moved is not one of them)
    // and what decided: not one repeated call, but failing runs with nothing changed between them
    const nudge = s.decisions.find((d) => d.action === 'nudge')!;
    assert.match(
      nudge.message!,
      /`Bash pytest -q`, `Bash pytest tests\/`, `Bash pytest -x -q tests` \(3 similar calls/,
    );
    assert.match(nudge.message!, /without progress \(failing runs with nothing changed in between\)/);
  });

  it('one program tried through wrappers, each failing in other words: failures are no news', () => {
    const s = new Session();
    s.prompt();
    s.call('Read', { file_path: '/home/dev/proj/README.md' }, code('readme'));
    s.call('Read', { file_path: '/home/dev/proj/scripts/flash.py' }, code('flash'));
    s.bash('adb devices', '/usr/bin/bash: line 1: adb: command not found', false);
    s.bash('cmd /c adb devices', "'adb' is not recognized as an internal or external command,", false);
    s.bash('powershell -Command "adb devices"', 'adb : The term adb is not recognized as the name of a cmdlet', false);
    assert.deepEqual(s.actions(), ['nudge']);
  });

  it('grep variants of a name that does not exist', () => {
    const s = new Session();
    s.prompt();
    for (const p of ['FloorDiv', 'floor_div', 'FloorDivide', 'floordiv', 'floor_divide'])
      s.call('Grep', { pattern: p, path: '/home/dev/proj/src', type: 'rs' }, 'No files found');
    assert.deepEqual(s.actions(), ['nudge']);
    const nudge = s.decisions.find((d) => d.action === 'nudge')!;
    assert.match(nudge.message!, /`Grep "FloorDiv" in src`/);
  });

  it('the same edit rejected the same way again and again', () => {
    const s = new Session();
    s.prompt();
    const rejected =
      '<tool_use_error>String to replace not found in file.\nString:     def merge(a, b):</tool_use_error>';
    for (let i = 0; i < 4; i++)
      s.call(
        'Edit',
        {
          file_path: '/home/dev/proj/src/merge.py',
          old_string: `    def merge(a, b):${' '.repeat(i)}`,
          new_string: '    def merge(a, b, c):',
        },
        rejected,
        false,
      );
    // the nudge at the third, and the fourth, which repeats the third exactly, refused
    assert.deepEqual(s.actions(), ['nudge', 'deny']);
    assert.ok(s.decisions.some((d) => d.signals.some((x) => x.code === 'EDIT_REJECTED')));
  });

  it('records which signals fired and the score, for a person to see why', () => {
    const s = new Session();
    s.prompt();
    times(3, () => s.bash('npm test', FAIL, false));
    const nudge = s.decisions.find((d) => d.action === 'nudge')!;
    for (const hit of nudge.signals) assert.equal(typeof hit.value, 'number');
    // the lead first, the one the message names: three identical failing runs
    assert.deepEqual(nudge.signals[0], { code: 'REPEAT', value: 3, detail: nudge.signals[0]!.detail });
    assert.match(nudge.message!, /x3/);
    // the rule that declared the stall: three failures with nothing changed in between
    assert.ok(nudge.signals.some((x) => x.code === 'NO_TREE_CHANGE' && x.value >= DEFAULT_CONFIG.unchangedFailures));
    // the judge's score last, recorded even when a floor decided
    const judge = nudge.signals.at(-1)!;
    assert.equal(judge.code, 'JUDGE');
    assert.ok(judge.value >= 0 && judge.value <= 1, `score ${judge.value}`);
  });

  it('can be switched off, leaving the floor', () => {
    const s = new Session(SEED_RULE);
    s.prompt();
    times(4, () => s.bash('npm test', FAIL, false));
    assert.deepEqual(s.actions(), []);
  });
});

describe('agents named like what every object has', () => {
  it('watches a subagent whose id is constructor, __proto__ or toString like any other', () => {
    for (const id of ['constructor', '__proto__', 'toString']) {
      const s = new Session(SEED_RULE);
      s.prompt();
      const d = times(5, () => s.bash('npm test', FAIL, false, { id, type: 'general-purpose' }));
      assert.equal(d[4]!.action, 'nudge', id);
      assert.ok(Object.hasOwn(s.state.agents, id), `${id} has a state of its own`);
    }
  });
});

describe('spawn guard', () => {
  /** One response that asks for `n` subagents at once, then its end: one round of delegation. */
  const round = (s: Session, n: number, what = 'part') => {
    const d = times(n, (i) => s.pre('Agent', { subagent_type: 'general-purpose', description: `${what} ${i}` }));
    s.batch();
    return d.map((x) => x.action);
  };

  it('refuses the 11th round of delegation in a task and tells the agent to do the work itself', () => {
    const s = new Session();
    s.prompt();
    const d = times(11, (i) => round(s, 1, `step ${i}`)[0]);
    assert.deepEqual(d, [...Array(10).fill('allow'), 'deny']);
    const refusal = s.decisions.at(-2)!;
    assert.equal(refusal.code, 'SPAWN_REFUSED');
    assert.match(refusal.message!, /round 11 of delegation .*10 subagents so far.* limit is 10.*yourself/);
  });

  it('counts a response that fans out to sixteen subagents as one round', () => {
    const s = new Session();
    s.prompt();
    s.batch();
    // each spawn's result arrives before the next spawn, as a replay feeds them; the spawn's own decision is read
    const fanOut = times(16, (i) => {
      s.call('Agent', { subagent_type: 'general-purpose', description: `part ${i}` }, `part ${i} started`);
      return s.decisions.at(-2)!.action;
    });
    assert.deepEqual(fanOut, Array(16).fill('allow'));
    s.batch();
    // nine more rounds of one spawn each make ten; the eleventh round is refused
    const rounds = times(10, (i) => round(s, 1, `check ${i}`)[0]);
    assert.deepEqual(rounds, [...Array(9).fill('allow'), 'deny']);
  });

  it('counts the first response as a round before any batch has ended, and where batches are not known', () => {
    const s = new Session();
    s.prompt();
    // twelve spawns asked for at once, before the agent has ended any batch: one round, all allowed
    assert.deepEqual(
      times(12, (i) => s.pre('Agent', { subagent_type: 'general-purpose', description: `part ${i}` }).action),
      Array(12).fill('allow'),
    );
    // an agent whose batches are never told: each result it gets ends a round, so one spawn at a time is a round each
    const codex = new Session({ spawnCap: 2 });
    codex.prompt();
    const d = times(3, (i) => {
      codex.call('Agent', { subagent_type: 'worker', description: `job ${i}` }, `job ${i} done`);
      return codex.decisions.at(-2)!.action;
    });
    assert.deepEqual(d, ['allow', 'allow', 'deny']);
  });

  it("keeps each agent's round its own: an orchestrator's spawns between them do not split the main agent's", () => {
    const s = new Session({ orchestrators: ['planner'], spawnCap: 2 });
    s.prompt();
    s.batch();
    const planner = { id: 'p1', type: 'planner' };
    const d = [
      s.pre('Agent', { subagent_type: 'general-purpose', description: 'part 1' }),
      s.pre('Agent', { subagent_type: 'general-purpose', description: 'its part' }, planner),
      s.pre('Agent', { subagent_type: 'general-purpose', description: 'part 2' }),
    ];
    assert.deepEqual(
      d.map((x) => x.action),
      ['allow', 'allow', 'allow'],
    );
  });

  it('stops on the second refusal the agent makes after seeing the first, with the tree of spawns', () => {
    const s = new Session();
    s.prompt();
    times(10, (i) => s.pre('Agent', { subagent_type: i < 6 ? 'general-purpose' : 'Explore', description: `d${i}` }));
    s.batch();
    times(9, (i) => round(s, 1, `more ${i}`));
    // the eleventh round, two spawns in one response: refused together, not yet a second refusal
    assert.deepEqual(round(s, 2, 'again'), ['deny', 'deny']);
    const d = s.pre('Agent', { subagent_type: 'general-purpose' });
    assert.equal(d.action, 'stop');
    assert.equal(d.code, 'SPAWN_STOP');
    assert.match(d.stopReason!, /main → general-purpose x15, Explore x4/);
  });

  it('counts the refused spawns of one parallel batch as one refusal, whatever results arrive between them', () => {
    const s = new Session();
    s.prompt();
    s.batch();
    times(10, (i) => round(s, 1, `step ${i}`));
    // the eleventh round fans out four parts in one response: all four are refused, and the agent is not stopped
    const later = times(4, (i) => {
      s.call('Agent', { subagent_type: 'general-purpose', description: `part ${i}` }, 'refused', false);
      return s.decisions.at(-2)!.action;
    });
    assert.deepEqual(later, ['deny', 'deny', 'deny', 'deny']);
    s.batch();
    // having seen the refusals, it asks again: a second refusal, and the stop
    assert.equal(s.pre('Agent', { subagent_type: 'general-purpose', description: 'all parts' }).action, 'stop');
  });

  it('refuses a spawn asked for again after work of its own, and does not stop the agent for it', () => {
    const s = new Session();
    s.prompt();
    times(11, (i) => round(s, 1, `part ${i}`));
    s.call('Read', { file_path: '/home/dev/proj/parts.md' }, '16 parts, 10 done');
    s.batch();
    const d = s.pre('Agent', { subagent_type: 'general-purpose', description: 'the remaining parts' });
    assert.equal(d.action, 'deny');
    assert.equal(d.code, 'SPAWN_REFUSED');
    s.batch();
    // asked again straight after seeing that refusal: the stop
    assert.equal(s.pre('Agent', { subagent_type: 'general-purpose', description: 'the rest' }).action, 'stop');
  });

  it('refuses a spawn from a subagent that is not an orchestrator', () => {
    const s = new Session();
    s.prompt();
    const d = s.pre('Task', { subagent_type: 'general-purpose' }, { id: 'a1', type: 'general-purpose' });
    assert.equal(d.action, 'deny');
    assert.equal(d.signals[0]!.code, 'SPAWN_DEPTH');
  });

  it('resets the rounds with a new prompt, and the cap is configuration', () => {
    const s = new Session({ spawnCap: 2 });
    s.prompt();
    times(2, () => round(s, 1));
    assert.deepEqual(round(s, 1), ['deny']);
    s.prompt('next');
    assert.deepEqual(round(s, 1), ['allow']);
  });
});

describe('self-protection', () => {
  // without a file reader (as here) hook settings hold no stallguard entries: src/guard/guard.test.ts has the rest
  it("denies changes to stallguard's files and switches, with what to do instead, and allows files beside them", () => {
    const s = new Session();
    s.prompt();
    const own = s.pre('Write', { file_path: '/home/dev/.stallguard/config.json', content: '{}' });
    assert.equal(own.action, 'deny');
    assert.equal(own.code, 'SELF_PROTECT');
    assert.deepEqual(own.signals, [
      { code: 'SELF_PROTECT', value: 1, detail: 'own: /home/dev/.stallguard/config.json' },
    ]);
    assert.match(
      own.message!,
      regex(
        '',
        /change \/home\/dev\/\.stallguard\/config\.json, which is stallguard's own configuration/,
        /.*/,
        /The person can make the change themselves/,
      ),
    );
    const off = s.pre('Edit', {
      file_path: '/home/dev/proj/.claude/settings.json',
      old_string: '{',
      new_string: '{ "disableAllHooks": true,',
    });
    assert.equal(off.action, 'deny');
    assert.match(
      off.message!,
      regex(
        '',
        /turn hooks off in \/home\/dev\/proj\/\.claude\/settings\.json/,
        /.*/,
        /edit \/home\/dev\/proj\/\.claude\/settings\.json in their own editor/,
      ),
    );
    assert.equal(s.pre('Bash', { command: 'rm -rf ~/.stallguard' }).action, 'deny');
    assert.equal(
      s.pre('Edit', { file_path: '/home/dev/proj/.claude/agents/reviewer.md', old_string: 'a', new_string: 'b' })
        .action,
      'allow',
    );
    assert.equal(
      s.pre('Edit', {
        file_path: '/home/dev/proj/.claude/settings.json',
        old_string: '"model": "a"',
        new_string: '"model": "b"',
      }).action,
      'allow',
    );
    assert.equal(s.pre('Bash', { command: 'cat .claude/settings.json' }).action, 'allow');
  });
});
