import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseOptions } from './_args.ts';
import { UsageError } from './_errors.ts';

describe('parse', () => {
  const options = { json: { type: 'boolean' } } as const;

  it('hands paths and names on to a command that takes them', () => {
    assert.deepEqual(parse('replay', ['a.jsonl', '--json', 'b.jsonl'], options).positionals, ['a.jsonl', 'b.jsonl']);
  });

  it('refuses a stray word where a command takes options only, naming it, rather than ignoring a typo', () => {
    assert.throws(
      () => parseOptions('status', ['--json', 'sesion-1'], options),
      (e: unknown) =>
        e instanceof UsageError &&
        e.message === 'status: unexpected argument "sesion-1": status takes options only (stallguard status --help)',
    );
    assert.equal(parseOptions('status', ['--json'], options).values.json, true);
  });

  it('says an unknown flag in one line', () => {
    assert.throws(() => parseOptions('status', ['--jsn'], options), /^UsageError: status: Unknown option '--jsn'$/);
  });
});
