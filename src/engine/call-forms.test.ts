import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalArgs } from '../core/canonical.ts';
import { digest } from '../core/digest.ts';
import { shortForm } from '../core/short-form.ts';
import { guardCall } from '../guard/guard.ts';
import { callForms, callGuard } from './call-forms.ts';

// A call's forms are remembered by its input object and, in a replay, by its content: what is remembered
// must be what working them out afresh gives, in whatever folder, and a guard that reads files looks anew.

const fresh = (call: { name: string; input: unknown }, cwd?: string) => {
  const args = canonicalArgs(call.name, call.input, { cwd });
  return { args, key: digest(call.name + '\u0000' + args), short: shortForm(call.name, call.input, cwd) };
};

describe('callForms', () => {
  it('gives what working the forms out afresh gives, for the same call again, another folder, another tool', () => {
    const input = { command: 'cat /home/dev/proj/src/a.ts', description: 'look' };
    const calls = [
      { name: 'Bash', input },
      { name: 'Bash', input },
      { name: 'Bash', input: { ...input } },
      { name: 'Shell', input },
      { name: 'Bash', input: { command: 'cat /home/dev/proj/src/b.ts' } },
    ];
    for (const cwd of [undefined, '/home/dev/proj', '/home/dev', '/home/dev/proj'])
      for (const call of calls) {
        const { args, key, short } = callForms(call, { cwd });
        assert.deepEqual({ args, key, short }, fresh(call, cwd));
      }
  });

  it("finds what the guard finds, and asks the guard again where it reads the machine's files", () => {
    const call = { name: 'Bash', input: { command: 'rm -rf /home/dev/.stallguard' } };
    const ctx = { cwd: '/home/dev/proj', home: '/home/dev', stallguardHome: '/home/dev/.stallguard' };
    assert.deepEqual(callGuard(call, ctx, callForms(call, ctx)), guardCall(call, ctx));
    assert.deepEqual(callGuard(call, ctx, callForms(call, ctx)), guardCall(call, ctx));
    const replay = { cwd: '/home/dev/proj' };
    const write = { name: 'Write', input: { file_path: '/home/dev/proj/a.ts', content: 'x' } };
    assert.equal(callGuard(write, replay, callForms(write, replay)), undefined);
    let reads = 0;
    const live = { ...replay, readText: () => (reads++, undefined) };
    const settings = { name: 'Write', input: { file_path: '/home/dev/.claude/settings.json', content: '{}' } };
    for (let i = 0; i < 2; i++) callGuard(settings, live, callForms(settings, live));
    assert.equal(reads >= 2, true, 'the file is read for each call');
  });
});
