import type { DetectorConfig } from '../../src/library/detector.ts';
import { SEED_RULE } from '../support/config.ts';
import { Session } from '../support/session.ts';

// The synthetic suite: labeled Claude Code sessions, each a scripted sequence of prompts, tool calls and
// their results, with what stallguard must do, written as a pattern over its interventions ("nudge@3"
// means a nudge after the third completed call). Every seed case of the core issue, every peer test case
// of ../shared/reference/peer-detectors.md section (c) that applies to tool calls and messages, and the
// hard negatives. Where a peer's expectation differs from ours, the case says why.
//
// Run by test/synthetic.test.ts, and counted by `npm run bench`.

export interface Case {
  id: string;
  name: string;
  config?: DetectorConfig;
  run(s: Session): void;
  /** What stallguard must do: a pattern over the timeline, e.g. /^$/ (nothing), /^nudge@[3-5]$/. */
  expect: RegExp;
  /** Why ours differs from the peer's, when it does. */
  note?: string;
}

const NONE = /^$/;
const FAIL = '> proj@1.0.0 test\n> node test.js\n\nrunning tests\n1 passed, 1 failed';
const P = '/home/dev/proj';

const repeat = (n: number, f: (i: number) => void) => {
  for (let i = 0; i < n; i++) f(i);
};
const read = (s: Session, file: string, content = `contents of ${file}`) =>
  s.call('Read', { file_path: `${P}/${file}` }, { type: 'text', file: { filePath: `${P}/${file}`, content } });
const tool = (s: Session, name: string, input: Record<string, unknown>, output: string, ok: boolean | null = true) =>
  s.call(name, input, output, ok);
const say = (s: Session, message: string, active = false) => s.stop(message, { id: 'main' }, active);
const sentence = 'I need to check the file again before continuing here.';

export const CASES: Case[] = [
  // ----- the core issue's own cases (the seed rule, with the judge off) -----
  {
    id: 'S1',
    name: 'the same failing npm test 5 times',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, () => s.bash('npm test', FAIL, false));
    },
    expect: /^nudge@5$/,
  },
  {
    id: 'S2',
    name: 'the same failing npm test 15 times: nudge, then stop',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(15, () => s.bash('npm test', FAIL, false));
    },
    expect: /^nudge@5 deny@5 stop@10$/,
  },
  {
    id: 'S3',
    name: 'a cycle of 2 (rejected edit, failing test) 5 times',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, () => {
        s.call(
          'Edit',
          { file_path: `${P}/src/billing.ts`, old_string: 'a - b', new_string: 'a + b' },
          'String to replace not found',
          false,
        );
        s.bash('npm test', FAIL, false);
      });
    },
    expect: /^nudge@10$/,
  },
  {
    id: 'S4',
    name: 'a cycle of 3 calls 5 times',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, () => {
        read(s, 'a.ts');
        read(s, 'b.ts');
        s.bash('npm test', FAIL, false);
      });
    },
    expect: /^nudge@15$/,
  },
  {
    id: 'S5',
    name: 'a cycle of 4 calls 5 times',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, () => {
        read(s, 'a.ts');
        read(s, 'b.ts');
        read(s, 'c.ts');
        s.bash('npm test', FAIL, false);
      });
    },
    expect: /^nudge@20$/,
  },
  {
    id: 'S6',
    name: 'a cycle of 5 calls 5 times',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, () => {
        for (const f of ['a', 'b', 'c', 'd']) read(s, `${f}.ts`);
        s.bash('npm test', FAIL, false);
      });
    },
    expect: /^nudge@25$/,
  },
  {
    id: 'S7',
    name: 'volatile parts of the output change (durations, times, pids, temp paths)',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, (i) =>
        s.bash(
          'pytest -q',
          `FAILED tests/t.py::x - AssertionError\n1 failed in 0.${i}1s at 2026-11-29T10:0${i}:00Z pid ${900 + i} /tmp/pytest-${i}/t`,
          false,
        ),
      );
    },
    expect: /^nudge@5$/,
  },
  {
    id: 'S8',
    name: 'the Bash description changes, the command does not',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, (i) =>
        s.call('Bash', { command: 'npm test', description: `attempt ${i}` }, `Exit code 1\n${FAIL}`, false),
      );
    },
    expect: /^nudge@5$/,
  },
  {
    id: 'S9',
    name: 'the same arguments in another key order',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, (i) =>
        s.call('Grep', i % 2 ? { pattern: 'x', path: 'src' } : { path: 'src', pattern: 'x' }, 'src/a.ts:1: x'),
      );
    },
    expect: /^nudge@5$/,
  },
  {
    id: 'S10',
    name: 'a new prompt after four repeats starts afresh',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(4, () => s.bash('npm test', FAIL, false));
      s.prompt('the fixture is fixed now, try again');
      repeat(4, () => s.bash('npm test', FAIL, false));
    },
    expect: NONE,
  },
  {
    id: 'S11',
    name: 'a stall in each of two tasks only nudges twice',
    config: SEED_RULE,
    run: (s) => {
      s.prompt('one');
      repeat(5, () => s.bash('npm test', FAIL, false));
      s.prompt('two');
      repeat(5, () => s.bash('npm test', FAIL, false));
    },
    expect: /^nudge@5 nudge@10$/,
  },
  {
    id: 'S12',
    name: 'a tool that is exempt is never counted',
    config: { ...SEED_RULE, exemptTools: ['BashOutput'] },
    run: (s) => {
      s.prompt();
      repeat(30, () => tool(s, 'BashOutput', { bash_id: 'b1' }, 'still running'));
    },
    expect: NONE,
  },
  {
    id: 'S13',
    name: 'the 11th round of spawns in a task is refused',
    run: (s) => {
      s.prompt();
      repeat(11, (i) => {
        s.pre('Agent', { subagent_type: 'general-purpose', description: `part ${i}`, prompt: `do part ${i}` });
        s.batch();
      });
    },
    expect: /^deny@0$/,
  },
  {
    id: 'S14',
    name: 'a second refusal after the first was seen stops, with the tree',
    run: (s) => {
      s.prompt();
      repeat(11, (i) => {
        s.pre('Agent', { subagent_type: 'general-purpose', description: `d${i}` });
        s.batch();
      });
      s.pre('Agent', { subagent_type: 'Explore' });
    },
    expect: /^deny@0 stop@0$/,
  },
  {
    id: 'S15',
    name: 'a subagent that is not an orchestrator may not spawn',
    run: (s) => {
      s.prompt();
      s.pre('Task', { subagent_type: 'general-purpose' }, { id: 'a1', type: 'general-purpose' });
    },
    expect: /^deny@0$/,
  },
  // these sessions read no files, so hook settings hold no stallguard entries here: src/guard/guard.test.ts has those cases
  {
    id: 'S16',
    name: 'an edit of .claude/settings.json that turns every hook off is refused',
    run: (s) => {
      s.prompt();
      s.pre('Edit', {
        file_path: `${P}/.claude/settings.json`,
        old_string: '"hooks"',
        new_string: '"disableAllHooks": true, "hooks"',
      });
    },
    expect: /^deny@0$/,
  },
  {
    id: 'S17',
    name: "sed -i on stallguard's user config is refused",
    run: (s) => {
      s.prompt();
      s.pre('Bash', { command: "sed -i 's/enforce/off/' ~/.stallguard/config.json" });
    },
    expect: /^deny@0$/,
  },
  {
    id: 'S18',
    name: 'a looping subagent is nudged and stopped; the main agent is not',
    run: (s) => {
      s.prompt();
      const sub = { id: 'a7', type: 'general-purpose' };
      repeat(8, (i) => {
        s.bash('npm test', FAIL, false, sub);
        s.bash(`git log -n ${i + 1}`, `commit ${i}`);
      });
      s.pre('Read', { file_path: `${P}/README.md` });
    },
    expect: /^nudge@\d+ (deny@\d+ )?stop@\d+$/,
  },

  // ----- hard negatives: healthy work is never touched (the judge on) -----
  {
    id: 'H1',
    name: 'test-driven work: edit, the test fails differently, edit, it passes',
    run: (s) => {
      s.prompt();
      repeat(8, (i) => {
        s.call(
          'Edit',
          { file_path: `${P}/src/a.ts`, old_string: `v${i}`, new_string: `v${i + 1}` },
          { filePath: `${P}/src/a.ts`, n: i },
        );
        s.bash('npm test', i < 7 ? `${7 - i} failed` : 'all passed', i < 7 ? false : true);
      });
    },
    expect: NONE,
  },
  {
    id: 'H2',
    name: 'the same edit over 20 files',
    run: (s) => {
      s.prompt();
      repeat(20, (i) =>
        s.call(
          'Edit',
          { file_path: `${P}/src/m${i}.ts`, old_string: 'oldName', new_string: 'newName' },
          { filePath: `${P}/src/m${i}.ts` },
        ),
      );
    },
    expect: NONE,
  },
  {
    id: 'H3',
    name: 'polling a build whose status changes, 25 times',
    run: (s) => {
      s.prompt();
      repeat(25, (i) => s.bash('gh run view 77 --json status,steps', `{"status":"in_progress","done":${i}}`));
    },
    expect: NONE,
  },
  {
    id: 'H4',
    name: 'exploration: reading and searching many different things',
    run: (s) => {
      s.prompt();
      repeat(30, (i) =>
        i % 3
          ? read(s, `src/f${i}.ts`)
          : tool(s, 'Grep', { pattern: `sym${i}`, path: 'src' }, `src/f${i}.ts:3: sym${i}`),
      );
    },
    expect: NONE,
  },
  {
    id: 'H5',
    name: 're-reading a file after changing it',
    run: (s) => {
      s.prompt();
      repeat(8, (i) => {
        read(s, 'src/a.ts', `version ${i}`);
        s.call('Edit', { file_path: `${P}/src/a.ts`, old_string: `v${i}`, new_string: `v${i + 1}` }, { ok: i });
      });
    },
    expect: NONE,
  },
  {
    id: 'H6',
    name: 'an orchestrator spawning under the cap',
    config: { orchestrators: ['planner'] },
    run: (s) => {
      s.prompt();
      repeat(5, (i) => s.call('Agent', { subagent_type: 'planner', description: `area ${i}` }, `done ${i}`));
      repeat(5, (i) =>
        s.call('Agent', { subagent_type: 'general-purpose', description: `file ${i}` }, `done ${i}`, true, {
          id: 'p1',
          type: 'planner',
        }),
      );
    },
    expect: NONE,
  },
  {
    id: 'H7',
    name: 'repeats on both sides of a new prompt are not added up',
    run: (s) => {
      s.prompt();
      repeat(2, () => s.bash('npm test', FAIL, false));
      s.prompt('fixed the env, run it again');
      repeat(2, () => s.bash('npm test', FAIL, false));
    },
    expect: NONE,
  },
  {
    id: 'H8',
    name: 'a single retry after a transient error',
    run: (s) => {
      s.prompt();
      s.bash('npm install', 'npm ERR! network ETIMEDOUT', false);
      s.bash('npm install', 'added 120 packages');
      s.bash('npm test', 'all passed');
    },
    expect: NONE,
  },
  {
    id: 'H9',
    name: 'fifteen paths written twice (two passes of a batch edit)',
    run: (s) => {
      s.prompt();
      repeat(2, (pass) =>
        repeat(15, (i) =>
          s.call(
            'Write',
            { file_path: `${P}/gen/f${i}.ts`, content: `export const v = ${pass};` },
            { filePath: `${P}/gen/f${i}.ts` },
          ),
        ),
      );
    },
    expect: NONE,
  },
  {
    id: 'H10',
    name: 'a long wait on a background shell with no new output yet (nine polls)',
    run: (s) => {
      s.prompt();
      s.call('Bash', { command: 'npm run build', run_in_background: true }, { backgroundTaskId: 'b1' });
      repeat(9, () => tool(s, 'BashOutput', { bash_id: 'b1' }, '(no new output)'));
    },
    expect: NONE,
  },

  // ----- Gemini CLI (loopDetectionService.test.ts) -----
  {
    id: 'G1',
    name: 't{param} x5: a loop at the fifth (ours: as soon as the same result comes back 3-5 times)',
    run: (s) => {
      s.prompt();
      repeat(5, () => tool(s, 'lookup', { param: 'value' }, 'same answer'));
    },
    expect: /^nudge@[3-5]( deny@[3-5])?$/,
    note: 'the call right after the nudge repeats the flagged one and is refused',
  },
  {
    id: 'G2',
    name: 'interleaved t{v1}, t{v2}, u{v1} x3 with different results each time: no loop',
    run: (s) => {
      s.prompt();
      repeat(3, (r) => {
        tool(s, 't', { v: 1 }, `a${r}`);
        tool(s, 't', { v: 2 }, `b${r}`);
        tool(s, 'u', { v: 1 }, `c${r}`);
      });
    },
    expect: NONE,
  },
  {
    id: 'G3',
    name: 't x4, a thought, t: thoughts do not reset the count',
    run: (s) => {
      s.prompt();
      repeat(4, () => tool(s, 'lookup', { param: 'value' }, 'same answer'));
      tool(s, 'lookup', { param: 'value' }, 'same answer');
    },
    expect: /^nudge@[3-5]/,
  },
  {
    id: 'G5',
    name: 'A,B alternating for 15 calls: a loop (period 2 needs 10)',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(15, (i) => read(s, i % 2 ? 'loop_b.txt' : 'loop_a.txt'));
    },
    expect: /^nudge@10/,
  },
  {
    id: 'G6',
    name: 'A,B,C cycling for 20 calls: a loop (period 3 needs 15)',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(20, (i) => read(s, `loop_${i % 3}.txt`));
    },
    expect: /^nudge@15/,
  },
  {
    id: 'G7',
    name: 'five calls cycling for 30 calls: a loop (period 5 needs 25)',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(30, (i) => tool(s, 't', { id: (i % 5) + 1 }, `r${i % 5}`));
    },
    expect: /^nudge@25/,
  },
  {
    id: 'G8',
    name: 'A,B,A,B,C,A,B,A,B: the pattern is broken',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      for (const f of 'ABABCABAB') read(s, `${f}.txt`);
    },
    expect: NONE,
  },
  {
    id: 'G9',
    name: 'strikes: t x5 nudges, more of the same stops',
    run: (s) => {
      s.prompt();
      repeat(12, () => tool(s, 'lookup', { param: 'value' }, 'same answer'));
    },
    expect: /^nudge@\d+ (deny@\d+ )?stop@\d+$/,
  },
  {
    id: 'G11',
    name: '1,000 random strings in one message: no loop',
    run: (s) => {
      s.prompt();
      say(s, Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 100003).toString(36).padEnd(10, 'x')).join(' '));
    },
    expect: NONE,
  },
  {
    id: 'G12',
    name: 'one 50-character sentence x10 in a message: a loop',
    run: (s) => {
      s.prompt();
      say(s, `${sentence} `.repeat(10));
    },
    expect: /^nudge@0$/,
  },
  {
    id: 'G13',
    name: 'a 15-line list with a long shared prefix: no loop',
    run: (s) => {
      s.prompt();
      say(
        s,
        Array.from(
          { length: 15 },
          (_, i) => `- projects/my-google-cloud-project-12345/locations/us-central1/services/${i}`,
        ).join('\n'),
      );
    },
    expect: NONE,
  },
  {
    id: 'G14',
    name: 'a sentence and 500 random characters, x10',
    run: (s) => {
      s.prompt();
      say(s, Array.from({ length: 10 }, (_, i) => `${sentence} ${'qwertyuiop'.repeat(50).slice(i)}`).join('\n'));
    },
    expect: /^nudge@0$/,
    note: 'Gemini: no loop (too far apart for its streaming window). Ours judges the whole closing message: the same sentence ten times is chanting however far apart.',
  },
  {
    id: 'G15',
    name: 'a 150-character pattern x12: a loop',
    run: (s) => {
      s.prompt();
      say(
        s,
        'The migration failed because the column already exists, so I will drop it and run the migration again from the very start now. '.repeat(
          12,
        ),
      );
    },
    expect: /^nudge@0$/,
  },
  {
    id: 'G16',
    name: '"I will not output any text. I will just end the turn. I am done." x15',
    run: (s) => {
      s.prompt();
      say(s, 'I will not output any text.\n I will just end the turn.\n I am done.\n'.repeat(15));
    },
    expect: /^nudge@0$/,
  },
  {
    id: 'G17',
    name: '"I have added all the requested logs ... mark the task as complete." x15',
    run: (s) => {
      s.prompt();
      say(s, 'I have added all the requested logs to the handlers. I will now mark the task as complete. '.repeat(15));
    },
    expect: /^nudge@0$/,
  },
  {
    id: 'G18',
    name: '"Thinking... Done." x30',
    run: (s) => {
      s.prompt();
      say(s, 'Thinking about the remaining work... Done with this step. '.repeat(30));
    },
    expect: /^nudge@0$/,
  },
  {
    id: 'G19',
    name: '"I need to check the file. The file does not exist. I will create the file." x15',
    run: (s) => {
      s.prompt();
      say(s, 'I need to check the file. The file does not exist. I will create the file. '.repeat(15));
    },
    expect: /^nudge@0$/,
  },
  {
    id: 'G20',
    name: 'a sentence x10 inside a code block: no loop',
    run: (s) => {
      s.prompt();
      say(s, '```\n' + `${sentence}\n`.repeat(10) + '```');
    },
    expect: NONE,
  },
  {
    id: 'G22',
    name: 'the same code line x20 in a fenced block: no loop',
    run: (s) => {
      s.prompt();
      say(s, '```js\n' + 'for (let i = 0; i < 10; i++) { console.log(i); }\n'.repeat(20) + '```');
    },
    expect: NONE,
  },
  {
    id: 'G24',
    name: 'a sentence x9, a table row, the sentence x9',
    run: (s) => {
      s.prompt();
      say(s, `${sentence}\n`.repeat(9) + '| Column 1 | Column 2 |\n' + `${sentence}\n`.repeat(9));
    },
    expect: /^nudge@0$/,
    note: 'Gemini: no loop (its streaming detector resets on structure). Ours reads the finished message, and 18 copies of one sentence outside the table are chanting.',
  },
  {
    id: 'G25',
    name: 'dividers x15: no loop',
    run: (s) => {
      s.prompt();
      say(s, `${'-'.repeat(50)}\n`.repeat(15) + `${'╭─'.repeat(25)}\n`.repeat(15));
    },
    expect: NONE,
  },

  // ----- OpenHands (test_is_stuck.py) -----
  {
    id: 'O1',
    name: 'one ls: too short',
    run: (s) => {
      s.prompt();
      s.bash('ls', 'a.py b.py');
    },
    expect: NONE,
  },
  {
    id: 'O2',
    name: 'ls with the same output x4: stuck',
    run: (s) => {
      s.prompt();
      repeat(4, () => s.bash('ls', ''));
    },
    expect: /^nudge@[3-4]( deny@[3-4])?$/,
  },
  {
    id: 'O3',
    name: 'ls x2, a user message, ls x2: the message starts afresh',
    run: (s) => {
      s.prompt();
      repeat(2, () => s.bash('ls', 'file1.txt'));
      s.prompt('keep going');
      repeat(2, () => s.bash('ls', 'file1.txt'));
    },
    expect: NONE,
    note: 'OpenHands headless mode ignores user messages and calls this stuck; a new prompt resets ours by design (peers users asked for it: Cline #10358).',
  },
  {
    id: 'O4',
    name: 'the same invalid command x4, each with another error text: stuck',
    run: (s) => {
      s.prompt();
      for (const e of ['Command not found', 'another error', 'Different error', 'yet another'])
        s.bash('invalid_command', `bash: ${e}`, false);
    },
    expect: /^nudge@[3-4]( deny@[3-4])?$/,
  },
  {
    id: 'O6',
    name: '(ls, read file1) x3 with the same outputs: a 2-cycle',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, () => {
        s.bash('ls', 'file1.txt\nfile2.txt');
        read(s, 'file1.txt', 'File content');
      });
    },
    expect: /^nudge@10$/,
    note: 'OpenHands flags 3 rounds; the seed rule needs 5.',
  },
  {
    id: 'O7',
    name: 'ls, read f1, pwd, read f2, pwd, read f2: not stuck',
    run: (s) => {
      s.prompt();
      s.bash('ls', 'f');
      read(s, 'file1.txt');
      s.bash('pwd', P);
      read(s, 'file2.txt');
      s.bash('pwd', P);
      read(s, 'file2.txt');
    },
    expect: NONE,
  },
  {
    id: 'O8',
    name: 'the same closing message, turn after turn: stuck',
    run: (s) => {
      s.prompt();
      say(s, "I'm doing well, thanks for asking.");
      say(s, "I'm doing well, thanks for asking.");
    },
    expect: /^nudge@0$/,
  },

  // ----- Roo Code (ToolRepetitionDetector.spec.ts) -----
  {
    id: 'R2',
    name: 'read(a), read(b): allowed',
    run: (s) => {
      s.prompt();
      read(s, 'a.ts');
      read(s, 'b.ts');
    },
    expect: NONE,
  },
  {
    id: 'R3',
    name: 'the same read with the same content x4 (Roo blocks the 4th)',
    run: (s) => {
      s.prompt();
      repeat(4, () => read(s, 'a.ts'));
    },
    expect: /^nudge@[3-4]( deny@[3-4])?$/,
    note: 'nudged at the third, and the fourth, the same read again, refused as Roo blocks it',
  },
  {
    id: 'R5',
    name: 'different tools with the same arguments are different calls',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(4, (i) => tool(s, i % 2 ? 'read_file' : 'list_files', { path: 'src' }, 'x'));
    },
    expect: NONE,
  },
  {
    id: 'R6',
    name: 'a limit of 2 stops the third identical call',
    config: { ...SEED_RULE, repeat: 2, stopAfterStalls: 1 },
    run: (s) => {
      s.prompt();
      repeat(3, () => s.bash('make', 'error: x', false));
    },
    expect: /^stop@2$/,
  },
  {
    id: 'R7',
    name: 'the same file at different offsets is pagination, not repetition',
    run: (s) => {
      s.prompt();
      repeat(12, (i) => s.call('Read', { file_path: `${P}/big.py`, offset: i * 200, limit: 200 }, `lines ${i * 200}`));
    },
    expect: NONE,
  },

  // ----- Cline (loop-detection.test.ts) -----
  {
    id: 'L2',
    name: 'identical x3 warns, x5 escalates',
    run: (s) => {
      s.prompt();
      repeat(5, () => tool(s, 'read_file', { path: 'a.ts' }, 'same'));
    },
    expect: /^nudge@[3-4]/,
  },
  {
    id: 'L3',
    name: 'a change of parameters resets the identical-call count: A,A,B,A,A',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      for (const f of 'AABAA') tool(s, 'read_file', { path: `${f}.ts` }, `content ${f}`);
    },
    expect: NONE,
  },
  {
    id: 'L3b',
    name: 'the same with the judge: reading A five times in six calls, unchanged',
    run: (s) => {
      s.prompt();
      for (const f of 'AABAAA') tool(s, 'read_file', { path: `${f}.ts` }, `content ${f}`);
    },
    expect: /^nudge@[5-6]$/,
    note: 'Cline resets on any other call; the judge sees five reads of one unchanged file in six calls as re-reading without new information (four re-reads, its fitted level).',
  },
  {
    id: 'L4',
    name: 'different tools, same parameters: not identical',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(6, (i) => tool(s, ['a', 'b', 'c'][i % 3]!, { path: 'x' }, 'same'));
    },
    expect: NONE,
  },
  {
    id: 'L7',
    name: 'task_progress changes are ignored',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(5, (i) =>
        tool(s, 'execute_command', { command: 'npm test', task_progress: `- [x] step ${i}` }, FAIL, false),
      );
    },
    expect: /^nudge@5$/,
  },

  // ----- OpenClaw (tool-loop-detection.test.ts) -----
  {
    id: 'P2',
    name: '15 distinct reads',
    run: (s) => {
      s.prompt();
      repeat(15, (i) => read(s, `f${i}.txt`));
    },
    expect: NONE,
  },
  {
    id: 'P3',
    name: 'read(/same.txt) x10 with the same output',
    run: (s) => {
      s.prompt();
      repeat(10, () => read(s, 'same.txt'));
    },
    expect: /^nudge@[3-5] .*stop@\d+$/,
  },
  {
    id: 'P5',
    name: 'a process poll saying "still running" x40: nudged late, after more waiting than a retry gets',
    run: (s) => {
      s.prompt();
      repeat(40, () => tool(s, 'process', { action: 'poll', id: 'p1' }, '(no new output) still running'));
    },
    expect: /^nudge@20 (deny@20 )?stop@40$/,
    note: "a poll whose answer says the job is still under way gets twice the room of other polls (20): real people's sessions poll a CI run a dozen times and are healthy",
  },
  {
    id: 'P6',
    name: 'the same poll x25 with changing output',
    run: (s) => {
      s.prompt();
      repeat(25, (i) => tool(s, 'process', { action: 'poll', id: 'p1' }, `line ${i}`));
    },
    expect: NONE,
  },
  {
    id: 'P8',
    name: 'writing the same content to two files in turn, x30',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(30, (i) => s.call('Write', { file_path: `/tmp/${i % 2 ? 'b' : 'a'}.md`, content: 'same' }, { ok: true }));
    },
    expect: /^nudge@([3-9]|10) .*stop@/,
  },
  {
    id: 'P9',
    name: '30 writes to distinct paths',
    run: (s) => {
      s.prompt();
      repeat(30, (i) => s.call('Write', { file_path: `${P}/out/f${i}.md`, content: `c${i}` }, { ok: i }));
    },
    expect: NONE,
  },
  {
    id: 'P10',
    name: 'an API script with the same output x20, varying durations',
    run: (s) => {
      s.prompt();
      repeat(20, (i) => s.bash('./grafana-api.sh datasources', `[{"id":1}]\nrequest took ${10 + i}ms`));
    },
    expect: /^nudge@[3-5] .*stop@\d+$/,
  },
  {
    id: 'P11',
    name: 'tail -f with no new output x20, varying pids',
    run: (s) => {
      s.prompt();
      repeat(20, (i) => s.bash('tail -f /var/log/app.log', `(no new output) pid ${3000 + i}`));
    },
    expect: /^nudge@10 (deny@10 )?stop@20$/,
  },
  {
    id: 'P12',
    name: '`date` x30, output changing',
    run: (s) => {
      s.prompt();
      repeat(30, (i) => s.bash('date', `tick ${i}`));
    },
    expect: NONE,
  },
  {
    id: 'P13',
    name: 'a failing command with a changing message x12',
    run: (s) => {
      s.prompt();
      repeat(12, (i) => s.bash('./deploy.sh', `error: attempt ${i} refused`, false));
    },
    expect: /^nudge@[3-5] .*stop@\d+$/,
    note: 'OpenClaw only warns; the same command failing again and again with nothing changed is a stall here (OpenHands agrees, O4).',
  },
  {
    id: 'P14',
    name: 'an unknown tool, varied arguments, x9',
    run: (s) => {
      s.prompt();
      repeat(9, (i) => tool(s, 'no_such_tool', { q: i }, 'Error: No such tool available: no_such_tool', false));
    },
    expect: /^nudge@[3-5]/,
    note: 'OpenClaw waits for 10; three to five calls failing alike are enough here (three attempts of one strategy make a stall).',
  },
  {
    id: 'P15',
    name: 'read a, list workspace, alternating x10 with stable outputs',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(10, (i) => (i % 2 ? tool(s, 'list', { dir: '/workspace' }, 'a.txt') : read(s, 'a.txt')));
    },
    expect: /^nudge@10$/,
  },
  {
    id: 'P15b',
    name: 'the same alternation x20 with progressing outputs',
    run: (s) => {
      s.prompt();
      repeat(20, (i) =>
        i % 2 ? tool(s, 'list', { dir: '/workspace' }, `a.txt\nn${i}.txt`) : read(s, 'a.txt', `v${i}`),
      );
    },
    expect: NONE,
  },
  {
    id: 'P16',
    name: 'read, list, read, write, list',
    run: (s) => {
      s.prompt();
      read(s, 'a.txt');
      tool(s, 'list', { dir: '/w' }, 'a');
      read(s, 'a.txt');
      s.call('Write', { file_path: `${P}/a.txt`, content: 'new' }, { ok: 1 });
      tool(s, 'list', { dir: '/w' }, 'a');
    },
    expect: NONE,
  },

  // ----- derived from users' issues (peer-detectors.md C7) -----
  {
    id: 'X1',
    name: 'polling a slow build with unchanged output: nudged late, not killed early',
    run: (s) => {
      s.prompt();
      repeat(12, () => s.bash('sleep 30; tail -n 5 build.log', 'compiling...'));
    },
    expect: /^nudge@10( deny@10)?$/,
  },
  {
    id: 'X2',
    name: 'three empty "continue" polls of a running command',
    run: (s) => {
      s.prompt();
      repeat(3, () => tool(s, 'BashOutput', { bash_id: 'b1' }, ''));
    },
    expect: NONE,
  },
  {
    id: 'X3',
    name: 'pagination with distinct offsets',
    run: (s) => {
      s.prompt();
      repeat(8, (i) => tool(s, 'read_file', { path: 'big.py', offset: i * 100 }, `page ${i}`));
    },
    expect: NONE,
  },
  {
    id: 'X5',
    name: 'pytest x5, nothing between, the same failure',
    run: (s) => {
      s.prompt();
      repeat(5, () => s.bash('pytest', 'FAILED tests/test_x.py::test_a - ValueError', false));
    },
    expect: /^nudge@[3-5]/,
  },
  {
    id: 'X6',
    name: 'get_issue(id=i) -> 404 x5',
    run: (s) => {
      s.prompt();
      repeat(5, (i) => tool(s, 'get_issue', { id: 100 + i }, 'Error: 404 Not Found', false));
    },
    expect: /^nudge@[3-5]$/,
    note: 'goose users asked for a streak of 3; looking up a few ids that do not exist can be exploration, so varied calls failing alike are a stall from the fifth',
  },
  {
    id: 'X7',
    name: 'the identical call once per assistant message, x10',
    run: (s) => {
      s.prompt();
      repeat(10, () => s.bash('git status', 'nothing to commit, working tree clean'));
    },
    expect: /^nudge@[3-5] .*stop@\d+$/,
  },
  {
    id: 'X9',
    name: 'a 4-call cycle ABCD x9 with identical results',
    config: SEED_RULE,
    run: (s) => {
      s.prompt();
      repeat(9, () => {
        for (const f of 'ABCD') tool(s, 'step', { name: f }, `result ${f}`);
      });
    },
    expect: /^nudge@20( deny@20)?$/,
    note: 'the cycle is flagged at its fifth round; after the nudge the window starts afresh, and four more rounds are not yet a second stall',
  },
  {
    id: 'X10',
    name: 'after a nudge the person says to keep retrying: that is a new task',
    run: (s) => {
      s.prompt();
      repeat(5, () => s.bash('npm test', FAIL, false));
      s.prompt('the CI is flaky, retry it twice');
      repeat(2, () => s.bash('npm test', FAIL, false));
    },
    expect: /^nudge@[3-5]( deny@[3-5])?$/,
  },
  {
    id: 'X11',
    name: '"Let me ..." spam x100 in one message',
    run: (s) => {
      s.prompt();
      say(s, 'Let me check the configuration file once more. '.repeat(100));
    },
    expect: /^nudge@0$/,
  },

  // ----- the judge: loops the seed rule does not see -----
  {
    id: 'J1',
    name: 'retry variants: pytest -q / pytest tests/ / python -m pytest, failing alike',
    run: (s) => {
      s.prompt();
      const out = 'FAILED tests/test_b.py::test_total - AssertionError: assert 110 == 120';
      for (const c of ['pytest -q', 'pytest tests/', 'python -m pytest tests/test_b.py', 'pytest -x'])
        s.bash(c, out, false);
    },
    expect: /^nudge@[3-4]$/,
  },
  {
    id: 'J2',
    name: 'grep variants of a name that does not exist',
    run: (s) => {
      s.prompt();
      for (const p of ['FloorDiv', 'floor_div', 'FloorDivide', 'floordiv', 'floor_divide'])
        tool(s, 'Grep', { pattern: p, path: `${P}/src`, type: 'rs' }, 'No files found');
    },
    expect: /^nudge@[3-5]$/,
  },
  {
    id: 'J3',
    name: 'an edit rejected the same way, resubmitted',
    run: (s) => {
      s.prompt();
      repeat(4, (i) =>
        s.call(
          'Edit',
          {
            file_path: `${P}/src/a.py`,
            old_string: `def merge(a, b):${' '.repeat(i)}`,
            new_string: 'def merge(a, b, c):',
          },
          'String to replace not found in file.',
          false,
        ),
      );
    },
    expect: /^nudge@[3-4]( deny@[3-4])?$/,
  },
  {
    id: 'J4',
    name: 'reading the same three screens of a file over and over',
    run: (s) => {
      s.prompt();
      repeat(3, () => {
        for (const o of [0, 100, 200])
          s.call('Read', { file_path: `${P}/src/big.py`, offset: o, limit: 100 }, `screen ${o}`);
      });
    },
    expect: /^nudge@\d+( deny@\d+)?( stop@\d+)?$/,
    note: 'after the nudge the script reads the same screens again: a second stall, which stops',
  },
  {
    id: 'J5',
    name: 'three rejected format replies in a row',
    run: (s) => {
      s.prompt();
      repeat(4, () =>
        tool(
          s,
          '<format_error>',
          { n_bash_blocks: 2 },
          'Please always provide EXACTLY ONE action in triple backticks, found 2 actions.',
          false,
        ),
      );
    },
    expect: /^nudge@[3-4]( deny@[3-4])?$/,
  },
];
