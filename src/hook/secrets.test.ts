import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { around, SECRET_FAMILIES } from '../../test/support/secrets.ts';
import { runHook } from './run-hook.ts';
import { sessionFile } from '../store/paths.ts';

// What the hook stores, grepped: no credential in clear anywhere in a call (command, pattern, URL,
// description, prompt, closing message), and no tool output or file content at all.

const root = mkdtempSync(join(tmpdir(), 'sg-secrets-'));
const home = join(root, 'sg-home');
const cwd = join(root, 'proj');
mkdirSync(cwd);
const env = { HOME: join(root, 'user'), STALLGUARD_HOME: home, STALLGUARD_MODE: 'enforce' };
let n = 0;

/** Every payload of one session that carries `text` somewhere an agent could put a credential or content. */
function session(text: string, content: string): { id: string; payloads: Record<string, unknown>[] } {
  const id = `sess-${n++}`;
  const base = { session_id: id, cwd, prompt_id: `p-${id}`, transcript_path: '/dev/null' };
  const tool = (hook: string, name: string, input: unknown, extra: Record<string, unknown> = {}) => ({
    ...base,
    hook_event_name: hook,
    tool_name: name,
    tool_input: input,
    tool_use_id: 'toolu_1',
    ...extra,
  });
  const command = `curl -sS ${text} https://api.example.com/v1`;
  const payloads = [
    { ...base, hook_event_name: 'UserPromptSubmit', prompt: `deploy with ${text}` },
    // the same failing command again and again, past two seed-rule
    // stalls: the nudge and the stop quote it in their messages
    ...Array.from({ length: 12 }, () => [
      tool('PreToolUse', 'Bash', { command }),
      tool('PostToolUseFailure', 'Bash', { command }, { error: `Exit code 1\n${content}\n${text}` }),
    ]).flat(),
    tool(
      'PostToolUse',
      'Bash',
      { command: 'env' },
      { tool_response: { stdout: `${content}\nTOKEN=${text}`, stderr: '' } },
    ),
    tool('PreToolUse', 'Write', { file_path: `${cwd}/.env.local`, content: `${content}\n${text}` }),
    tool(
      'PostToolUse',
      'Write',
      { file_path: `${cwd}/.env.local`, content: `${content}\n${text}` },
      { tool_response: { type: 'create' } },
    ),
    tool(
      'PostToolUse',
      'Edit',
      { file_path: `${cwd}/config.ts`, old_string: content, new_string: text },
      { tool_response: { structuredPatch: [content, text] } },
    ),
    tool(
      'PostToolUse',
      'Read',
      { file_path: `${cwd}/secrets.txt` },
      { tool_response: { type: 'text', file: { content: `${content}\n${text}` } } },
    ),
    tool('PostToolUse', 'Grep', { pattern: text, path: cwd }, { tool_response: { mode: 'content', content } }),
    tool('PostToolUse', 'WebFetch', { url: `https://example.com/${text}`, prompt: text }, { tool_response: content }),
    tool('PreToolUse', 'Agent', { subagent_type: 'general-purpose', description: text, prompt: `${content} ${text}` }),
    {
      ...base,
      hook_event_name: 'Stop',
      last_assistant_message: `${content} Done, used ${text}.`,
      stop_hook_active: false,
    },
  ];
  return { id, payloads };
}

/** Content made of words no rule would touch: if it is stored, it is stored raw. */
const content = fc
  .array(fc.string({ unit: fc.constantFrom(...'ghijklmnopqrstuvwxyz'), minLength: 6, maxLength: 10 }), {
    minLength: 3,
    maxLength: 6,
  })
  .map((w) => w.join(' '));

describe('what the hook stores', () => {
  for (const [family, secret] of SECRET_FAMILIES) {
    it(`holds no ${family}, and no output or file content, wherever the agent put them`, () => {
      fc.assert(
        fc.property(secret, around, content, ({ text, secret }, [before, after], raw) => {
          const { id, payloads } = session(before + text + after, raw);
          for (const p of payloads) runHook({ stdin: JSON.stringify(p), argv: [], env });
          const ledger = readFileSync(sessionFile(home, id), 'utf8');
          assert.equal(ledger.includes(secret), false, `${family} in the ledger`);
          assert.equal(ledger.includes(raw), false, 'raw content in the ledger');
          assert.match(ledger, /"action":"stop"/, 'the decisions that quote the calls were made');
        }),
        { numRuns: 8 },
      );
      const errors = join(home, 'errors.log');
      if (existsSync(errors)) assert.equal(readFileSync(errors, 'utf8').includes('sk-'), false);
    });
  }
});

/** A session's lines with what differs between any two runs (ids, times, the session's name) taken out. */
function normalized(id: string): string {
  return readFileSync(sessionFile(home, id), 'utf8')
    .replaceAll(id, 'SESSION')
    .replace(/"(id|after)":"[^"]+"/g, '"$1":"X"')
    .replace(/"(time|at)":\d+/g, '"$1":0'); // a checkpoint holds when each agent was last active
}

/** Another secret of the same shape: each letter and digit moved along its own alphabet. */
function rotate(secret: string, by: number): string {
  const shift = (c: string, from: string, size: number) =>
    String.fromCharCode(from.charCodeAt(0) + ((c.charCodeAt(0) - from.charCodeAt(0) + by) % size));
  return secret
    .replace(/[A-Z]/g, (c) => shift(c, 'A', 26))
    .replace(/[a-z]/g, (c) => shift(c, 'a', 26))
    .replace(/[0-9]/g, (c) => shift(c, '0', 10));
}

describe('what the hook derives from a secret', () => {
  it('is the same whatever the secret: no digest or sketch in the ledger depends on it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...SECRET_FAMILIES.map(([, s]) => s)).chain((s) => s),
        fc.integer({ min: 1, max: 9 }),
        content,
        (a, by, raw) => {
          const one = session(a.text, raw);
          const two = session(a.text.replaceAll(a.secret, rotate(a.secret, by)), raw);
          for (const p of one.payloads) runHook({ stdin: JSON.stringify(p), argv: [], env });
          for (const p of two.payloads) runHook({ stdin: JSON.stringify(p), argv: [], env });
          assert.equal(
            normalized(two.id).replaceAll(`p-${two.id}`, 'P'),
            normalized(one.id).replaceAll(`p-${one.id}`, 'P'),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('permissions under STALLGUARD_HOME', () => {
  /** One `ls` through the hook, in session `s`: what makes the hook write its files. */
  const lsOnce = (dir: string, env: Record<string, string>) =>
    runHook({
      stdin: JSON.stringify({
        hook_event_name: 'PostToolUse',
        session_id: 's',
        cwd: dir,
        tool_name: 'Bash',
        tool_input: { command: 'ls' },
        tool_response: 'x',
      }),
      argv: [],
      env,
    });

  it('files 0600 and folders 0700, the error log included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sg-perm-'));
    const sg = join(dir, 'sg-home');
    const e = { HOME: dir, STALLGUARD_HOME: sg };
    lsOnce(dir, e);
    runHook({ stdin: 'not json', argv: [], env: e });
    for (const [path, mode] of [
      [sg, 0o700],
      [join(sg, 'sessions'), 0o700],
      [join(sg, 'sessions', 's.jsonl'), 0o600],
      [join(sg, 'errors.log'), 0o600],
    ] as const) {
      assert.equal(statSync(path).mode & 0o777, mode, path);
    }
  });

  it(
    'tightens a sessions folder that already existed with looser ' +
      'permissions, and leaves STALLGUARD_HOME itself as the person made it',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'sg-perm-'));
      const sg = join(dir, 'shared');
      mkdirSync(join(sg, 'sessions'), { recursive: true, mode: 0o777 });
      writeFileSync(join(sg, 'keep.txt'), '');
      const e = { HOME: dir, STALLGUARD_HOME: sg };
      lsOnce(dir, e);
      assert.equal(statSync(join(sg, 'sessions')).mode & 0o777, 0o700);
      assert.equal(statSync(join(sg, 'sessions', 's.jsonl')).mode & 0o777, 0o600);
      assert.equal(statSync(sg).mode & 0o777, 0o755 & ~process.umask());
    },
  );
});
