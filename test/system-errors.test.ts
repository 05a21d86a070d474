import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, scratch } from './support/hook-process.ts';

// A system error reaches a person as what is wrong and where, in one line: never node's bare code and
// syscall ("EISDIR: illegal operation on a directory, read"), never a stack trace.

describe('system errors, in words', () => {
  it('a folder where a file should be, and a file where a folder should be', () => {
    const { dir, project, env } = scratch();
    mkdirSync(join(dir, 'a-folder'));
    const replay = runCli(['replay', join(dir, 'a-folder')], env, project);
    assert.equal(
      replay.stderr,
      `stallguard replay: cannot read ${join(dir, 'a-folder')}: a folder stands where a file should be\n`,
    );
    const exported = runCli(['export', '--prometheus', join(dir, 'a-folder')], env, project);
    assert.equal(
      exported.stderr,
      `stallguard export: cannot write ${join(dir, 'a-folder')}: a folder stands where a file should be\n`,
    );
    writeFileSync(join(project, '.claude'), 'not a folder');
    const install = runCli(['install'], env, project);
    assert.equal(install.status, 1);
    assert.equal(
      install.stderr,
      `stallguard install: ${join(project, '.claude', 'settings.local.json')}: a file stands where a folder should be\n`,
    );
  });
});
