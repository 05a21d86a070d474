import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { treeFingerprint } from '../src/hook/tree.ts';
import { claude, runHookProcess, scratch } from './support/hook-process.ts';

// The working-tree fingerprint, on real git repositories: taken only after a failing test run, it tells a
// retry with nothing changed from one after a change made outside the agent's edit tools.

function repo(): { project: string; env: Record<string, string>; home: string } {
  const s = scratch('enforce');
  execFileSync('git', ['init', '-q'], { cwd: s.project });
  writeFileSync(join(s.project, 'sum.js'), 'module.exports = (a, b) => a - b;\n');
  execFileSync('git', ['add', '.'], { cwd: s.project });
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init'], { cwd: s.project });
  return s;
}

const FAIL = 'FAIL test/sum.test.js\n  expected 3, received -1\nTests: 1 failed, 1 total';

describe('the working-tree fingerprint', () => {
  it('changes with the content of a changed file, and comes back when the content does', () => {
    const { project } = repo();
    const clean = treeFingerprint(project)!;
    writeFileSync(join(project, 'sum.js'), 'module.exports = (a, b) => a + b;\n');
    const changed = treeFingerprint(project)!;
    writeFileSync(join(project, 'sum.js'), 'module.exports = (a, b) => a - b;\n');
    assert.notEqual(changed, clean);
    assert.equal(treeFingerprint(project), clean);
    assert.equal(treeFingerprint('/'), undefined, 'no repository: no fingerprint');
  });

  it('lets a failing retry after a change made outside the agent count as progress', () => {
    const { project, env } = repo();
    runHookProcess(claude.prompt(project), env);
    const outs: string[] = [];
    for (let i = 0; i < 3; i++) {
      outs.push(runHookProcess(claude.failure(project, 'npm test', FAIL), env).stdout);
      writeFileSync(join(project, 'sum.js'), `module.exports = (a, b) => a - b - ${i};\n`); // the person edits
    }
    assert.deepEqual(outs, ['', '', '']);
  });

  it('sees the same failing run three times over an unchanged tree as a stall', () => {
    const { project, env } = repo();
    runHookProcess(claude.prompt(project), env);
    const outs = Array.from({ length: 3 }, () => runHookProcess(claude.failure(project, 'npm test', FAIL), env).stdout);
    assert.equal(outs[2] ? JSON.parse(outs[2]).hookSpecificOutput.hookEventName : '', 'PostToolUseFailure');
  });
});
