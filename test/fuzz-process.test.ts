import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { heavyStdin, internalErrors, invalidUtf8, registeredAgents, runProcess, samples } from './support/fuzz.ts';

// The real bundled hook, a handful of raw inputs per registered adapter: bytes that are not UTF-8, a
// payload cut short, 10 MB, deep nesting. Exit 0, nothing or one JSON object on stdout, and no error
// logged but a complaint about the input.

for (const agent of registeredAgents()) {
  describe(`${agent}: the hook process under bad bytes`, () => {
    const home = mkdtempSync(join(tmpdir(), 'sg-fuzzp-'));
    const env = { HOME: home, STALLGUARD_HOME: join(home, 'sg'), STALLGUARD_MODE: 'enforce' };
    afterEach(() => assert.deepEqual(internalErrors(env.STALLGUARD_HOME), []));

    it('invalid UTF-8 inside a string, before and after the JSON', () => {
      for (const [i, bytes] of invalidUtf8(agent).entries()) if (i % 3 === 0 || i < 3) runProcess(agent, bytes, env);
    });

    it('a payload cut short, and an empty one', () => {
      const json = JSON.stringify(samples(agent)[0] ?? { hook_event_name: 'PreToolUse', session_id: 'x' });
      for (const input of [json.slice(0, json.length >> 1), json.slice(0, 1), '', '\n']) runProcess(agent, input, env);
    });

    it('10 MB and nesting 100 000 deep', { timeout: 120_000 }, () => {
      const [bigCommand, , , deep] = heavyStdin(agent);
      runProcess(agent, bigCommand!, env);
      runProcess(agent, deep!, env);
    });
  });
}
