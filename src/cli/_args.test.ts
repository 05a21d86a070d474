import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from './_args.ts';
import { UsageError } from './_errors.ts';

describe('parse', () => {
  const options = { json: { type: 'boolean' } } as const;

  it('hands paths and names on to a command that takes them', () => {
    assert.deepEqual(parse('replay', ['a.jsonl', '--json', 'b.jsonl'], options).positionals, ['a.jsonl', 'b.jsonl']);
  });

  it('refuses a stray word where a command takes options only, naming it, rather than ignoring a typo', () => {
    assert.throws(
      () => parse('status', ['--json', 'sesion-1'], options, false),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message === 'status: unexpected argument "sesion-1": status takes options only (stallguard status --help)',
    );
    assert.equal(parse('status', ['--json'], options, false).values.json, true);
  });

  it('says an unknown flag in one line', () => {
    assert.throws(() => parse('status', ['--jsn'], options, false), /^UsageError: status: Unknown option '--jsn'$/);
  });
});
