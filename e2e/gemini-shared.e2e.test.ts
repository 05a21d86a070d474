import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readLedger } from './support/scratch.ts';
import { LOOPING_NPM_TEST } from './support/gemini-scripts.ts';
import { ensureGemini, geminiScenario, geminiStreamResults } from './support/gemini-session.ts';

// A shared install (--scope project): the project's .gemini/settings.json runs `stallguard` from PATH. For
// a teammate who has it, the loop is stopped as with a personal install; for one who has not, the hook
// steps aside: Gemini CLI takes a hook's exit 2 and above as a deny, so a plain missing command would
// refuse every call.

const { label } = ensureGemini();

test(`${label}: a shared install runs stallguard from PATH and ends a looping npm test`, {
  timeout: 180_000,
}, async () => {
  await geminiScenario(
    { name: 'gemini-shared', mode: 'enforce', script: LOOPING_NPM_TEST, shared: 'on PATH' },
    (run) => {
      const stream = geminiStreamResults(run);
      console.log(`${label}: shared install, stallguard on PATH: ended after ${stream.length} calls`);
      assert.match(
        run.installedSettings,
        /"command": "command -v stallguard >\/dev\/null 2>&1 \|\| exit 0; (?:\S+=\S* )*stallguard hook --agent gemini # stallguard"/,
      );
      assert.equal(run.hookErrors, '');
      assert.match(JSON.stringify(stream.at(-1)), /stopped by hook: stall: `run_shell_command npm test` x\d/);
      assert.ok(stream.length < 15, `stopped after ${stream.length} calls`);
    },
  );
});

test(`${label}: a shared install where stallguard is not on PATH steps aside: every call runs`, {
  timeout: 180_000,
}, async () => {
  const script = { main: [...LOOPING_NPM_TEST.main.slice(0, 3), [{ text: 'Done.' }]] };
  await geminiScenario({ name: 'gemini-shared-missing', mode: 'enforce', script, shared: 'missing' }, (run) => {
    const stream = geminiStreamResults(run);
    console.log(
      `${label}: shared install, no stallguard on PATH: ${stream.length} calls ran, ${stream.filter((r) => r.status !== 'success').length} not`,
    );
    assert.equal(stream.length, 3);
    assert.ok(
      stream.every((r) => r.status === 'success'),
      JSON.stringify(stream.filter((r) => r.status !== 'success')),
    );
    assert.equal(readLedger(run.scratch).size, 0, 'nothing ran to record anything');
  });
});
