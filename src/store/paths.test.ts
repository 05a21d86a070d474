import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { filesUnder } from '../../test/support/files.ts';
import { runHook } from '../hook/run-hook.ts';
import { safeName, SESSIONS_DIR, sessionFile } from './paths.ts';

// No string an agent sends can make stallguard write outside STALLGUARD_HOME.

/** Strings built to escape: traversal, absolute paths, NUL, separators of every platform, and anything at all. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom(
    '',
    '.',
    '..',
    '../',
    '../../../../tmp/evil',
    '/etc/passwd',
    '..\\..\\evil',
    'a/../../b',
    '\u0000',
    'x\u0000/../y',
    '~',
    '$HOME',
    'CON',
    'a'.repeat(5000),
    'Ab',
    'ab',
  ),
  fc
    .array(fc.constantFrom('..', '/', '\\', '.', 'evil', '\u0000', '%2e%2e', ':'), { maxLength: 12 })
    .map((parts) => parts.join('')),
);

describe('paths from payload strings', () => {
  it('a session id becomes a plain file name directly in the sessions folder', () => {
    fc.assert(
      fc.property(hostile, (id) => {
        const name = safeName(id);
        assert.match(name, /^[A-Za-z0-9_-]{1,80}$/);
        assert.equal(dirname(sessionFile('/sg', id)), join('/sg', SESSIONS_DIR));
      }),
      { numRuns: 2000 },
    );
  });

  it('two different ids never share a file, capitals included', () => {
    fc.assert(
      fc.property(hostile, hostile, (a, b) => {
        fc.pre(a !== b);
        assert.notEqual(safeName(a).toLowerCase(), safeName(b).toLowerCase());
      }),
      { numRuns: 2000 },
    );
  });

  it(
    'whatever the payload says (session, agent, tool, cwd, ' +
      'transcript), the hook writes only under STALLGUARD_HOME',
    () => {
      const root = mkdtempSync(join(tmpdir(), 'sg-paths-'));
      const home = join(root, 'sg-home');
      const project = join(root, 'proj');
      mkdirSync(project);
      const env = { HOME: join(root, 'user'), STALLGUARD_HOME: home, STALLGUARD_MODE: 'enforce' };
      fc.assert(
        fc.property(
          hostile,
          hostile,
          hostile,
          fc.oneof(hostile, fc.constant(project)),
          fc.constantFrom(
            'PreToolUse',
            'PostToolUse',
            'PostToolUseFailure',
            'PostToolBatch',
            'UserPromptSubmit',
            'Stop',
            'SubagentStop',
          ),
          (session, agentId, tool, cwd, event) => {
            const payload = {
              hook_event_name: event,
              session_id: session,
              agent_id: agentId,
              agent_type: agentId,
              tool_name: tool,
              tool_input: { file_path: session, command: `cat ${agentId}` },
              tool_response: 'ok',
              error: 'Exit code 1',
              cwd,
              transcript_path: session,
              prompt_id: agentId,
            };
            runHook({ stdin: JSON.stringify(payload), argv: [], env });
          },
        ),
        { numRuns: 150 },
      );
      const outside = filesUnder(root).filter((f) => relative(home, f).startsWith('..'));
      assert.deepEqual(outside, []);
      assert.ok(filesUnder(join(home, SESSIONS_DIR)).length > 0, 'the hook did record sessions');
    },
  );
});
