import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claude, runHookProcess, scratch } from './support/hook-process.ts';
import { SEED_RULE } from './support/config.ts';

// dist/hook.cjs runs the hook with V8's code cache, kept in STALLGUARD_HOME/cache. The cache is only ever
// a saving: a missing, stale or corrupt one must leave the hook's answers exactly as they are.

const FAIL = '> proj@1.0.0 test\n> node test.js\n\nrunning tests\n1 passed, 1 failed';
const cacheFiles = (home: string) => (existsSync(join(home, 'cache')) ? readdirSync(join(home, 'cache')).sort() : []);

describe('the hook code cache', () => {
  it('is made by the heaviest path a run took, each kind once, and the heaviest there is is the one loaded', () => {
    const { project, env, home } = scratch('enforce');
    const kinds = () => cacheFiles(home).map((f) => f.replace(/^hook-\w+-v[\d.]+-\w+\./, ''));
    const read = claude.post(
      project,
      'Read',
      { file_path: 'a.ts' },
      { type: 'text', file: { filePath: 'a.ts', content: 'x' } },
    );
    runHookProcess(claude.prompt(project), env);
    assert.deepEqual(kinds(), ['thin.v8']);
    runHookProcess(read, env);
    assert.deepEqual(kinds(), ['full.v8', 'thin.v8']);
    runHookProcess(claude.failure(project, 'npm test', FAIL), env);
    assert.deepEqual(kinds(), ['failure.v8', 'full.v8', 'thin.v8']);
    const failure = readFileSync(join(home, 'cache', cacheFiles(home)[0]!));
    runHookProcess(read, env);
    runHookProcess(claude.failure(project, 'npm test', FAIL), env);
    assert.deepEqual(
      readFileSync(join(home, 'cache', cacheFiles(home)[0]!)),
      failure,
      'a good cache is not written again',
    );
    // a failed test run in a git repository reads the working tree too: the heaviest path
    spawnSync('git', ['init', '-q'], { cwd: project });
    runHookProcess(claude.failure(project, 'npm test', FAIL), env);
    assert.deepEqual(kinds(), ['failure.v8', 'full.v8', 'thin.v8', 'tree.v8']);
  });

  it('answers the same with a corrupt cache, and replaces it; caches of other builds are removed', () => {
    const { project, env, home } = scratch('enforce', SEED_RULE);
    runHookProcess(claude.failure(project, 'npm test', FAIL), env);
    const [name] = cacheFiles(home);
    writeFileSync(join(home, 'cache', name!), 'not a code cache');
    writeFileSync(join(home, 'cache', 'hook-0000000000000000-v20.0.0-x64.full.v8'), 'an old build');
    const outs = Array.from({ length: 4 }, () => runHookProcess(claude.failure(project, 'npm test', FAIL), env));
    assert.deepEqual(
      outs.map((o) => o.status),
      [0, 0, 0, 0],
    );
    assert.match(
      JSON.parse(outs[3]!.stdout).hookSpecificOutput.additionalContext,
      /`Bash npm test` x5 \(same failure\)/,
    );
    assert.deepEqual(cacheFiles(home), [name]);
    assert.notEqual(readFileSync(join(home, 'cache', name!), 'utf8'), 'not a code cache');
    assert.equal(existsSync(join(home, 'errors.log')), false);
  });

  it('is not made when stallguard is off', () => {
    const { project, env, home } = scratch('off');
    runHookProcess(claude.failure(project, 'npm test', FAIL), { ...env, STALLGUARD_MODE: 'off' });
    assert.equal(existsSync(join(home, 'cache')), false);
  });

  it('is left as it is when stallguard is off, a corrupt one too', () => {
    const { project, env, home } = scratch('enforce');
    runHookProcess(claude.prompt(project), env);
    const [name] = cacheFiles(home);
    writeFileSync(join(home, 'cache', name!), 'not a code cache');
    const off = { ...env, STALLGUARD_MODE: 'off' };
    const out = runHookProcess(claude.failure(project, 'npm test', FAIL), off);
    assert.deepEqual([out.status, out.stdout], [0, '']);
    assert.deepEqual(cacheFiles(home), [name]);
    assert.equal(readFileSync(join(home, 'cache', name!), 'utf8'), 'not a code cache');
  });
});
