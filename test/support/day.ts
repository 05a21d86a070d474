import { type Call, hookSession } from './ledger.ts';

// A day of work watched in shadow mode with the shipped settings: six sessions where the agent reads a
// file four times over before it edits it (stallguard nudges at the third re-read; the person who works
// this way calls that wrong), and two where the tests fail the same way six times running (a stall: right).

const CWD = '/home/dev/proj';
const readA = (): Call => ({
  tool: 'Read',
  input: { file_path: `${CWD}/src/a.ts` },
  output: '// src/a.ts\nexport const x = 1;',
  ok: true,
});
const edit = (file: string, n: number): Call => ({
  tool: 'Edit',
  input: { file_path: `${CWD}/${file}`, old_string: `x = ${n}`, new_string: `x = ${n + 1}` },
  output: 'The file has been updated.',
  ok: true,
});
const failing = (): Call => ({
  tool: 'Bash',
  input: { command: 'npm test', description: 'Run tests' },
  output: 'Exit code 1\nFAIL test/a.test.ts\n  expected 2, got 3',
  ok: false,
});
const passing = (): Call => ({
  tool: 'Bash',
  input: { command: 'npm test', description: 'Run tests' },
  output: 'ok 3 passed',
  ok: true,
});

export const REREAD_SESSIONS = ['reread-1', 'reread-2', 'reread-3', 'reread-4', 'reread-5', 'reread-6'];
export const LOOP_SESSIONS = ['loop-1', 'loop-2'];

/** Four reads of src/a.ts in a row (the loop a re-read nudge names), then an edit and a passing run. */
export const rereads = (n: number): Call[] => [
  readA(),
  edit('src/b.ts', n),
  readA(),
  readA(),
  readA(),
  readA(),
  edit('src/a.ts', n),
  passing(),
];

export function workDay(home: string): void {
  for (const [i, id] of REREAD_SESSIONS.entries())
    hookSession(home, id, rereads(i), { config: null, prompt: 'tidy up a.ts' });
  for (const id of LOOP_SESSIONS)
    hookSession(home, id, [readA(), ...Array.from({ length: 6 }, failing), edit('src/a.ts', 9)], { config: null });
}
