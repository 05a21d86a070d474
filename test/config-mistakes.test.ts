import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { claude, runCli, runHookProcess, scratch } from './support/hook-process.ts';

// A mistake in .stallguard.json is the person's: `status`, `doctor` and the hook's error log each name
// the file, the setting, what it holds and what it should be, and the setting falls back to its default
// while the others still apply.

interface Check {
  area: string;
  status: string;
  detail: string;
  fix?: string;
}

function doctorChecks(env: Record<string, string>, cwd: string): Check[] {
  const r = runCli(['doctor', '--json'], env, cwd);
  return (JSON.parse(r.stdout) as { checks: Check[] }).checks;
}

describe('config mistakes', () => {
  it('a misspelt mode and an out-of-range number: named in status, doctor and the hook log; the defaults apply', () => {
    const { project, env, home } = scratch();
    const file = join(project, '.stallguard.json');
    writeFileSync(file, JSON.stringify({ mode: 'enforc', repeat: -1, stopAfterStalls: 3 }));
    const mode = `${file}: mode is "enforc", but it must be one of "shadow", "enforce", "off"; using "shadow" instead`;
    const repeat = `${file}: repeat is -1, but it must be a whole number from 2 to 100; using 5 instead`;

    const status = runCli(['status'], env, project);
    assert.equal(status.status, 0);
    assert.match(status.stdout, /^mode: shadow /);
    assert.equal(status.stderr, `stallguard: config: ${mode}\nstallguard: config: ${repeat}\n`);
    const json = JSON.parse(runCli(['status', '--json'], env, project).stdout);
    assert.deepEqual(
      json.configProblems.map((p: { field: string; value: unknown; fallback: unknown }) => [
        p.field,
        p.value,
        p.fallback,
      ]),
      [
        ['mode', 'enforc', 'shadow'],
        ['repeat', -1, 5],
      ],
    );

    const checks = doctorChecks(env, project);
    const warned = checks.filter((c) => c.area === 'config' && c.status === 'warn');
    assert.deepEqual(
      warned.map((c) => c.detail),
      [mode, repeat],
    );
    assert.equal(warned[0]!.fix, `edit mode in ${file}: it must be one of "shadow", "enforce", "off"`);
    // the hook ran with them and logged them, but a config mistake is not a stallguard bug
    const run = checks.find((c) => c.area === 'hook run')!;
    assert.notEqual(run.status, 'fail', JSON.stringify(run));
    assert.doesNotMatch(run.detail, /recorded nothing/);
    assert.equal(
      checks.some((c) => /report it/.test(c.fix ?? '')),
      false,
    );

    assert.equal(runHookProcess(claude.prompt(project), env).status, 0);
    const log = readFileSync(join(home, 'errors.log'), 'utf8');
    assert.ok(log.includes(` config: ${mode}\n`), log);
    assert.ok(log.includes(` config: ${repeat}\n`), log);
  });

  it('invalid JSON: the line and column, and none of the file applies', () => {
    const { project, env } = scratch();
    const file = join(project, '.stallguard.json');
    writeFileSync(file, '{\n  "mode": "enforce",\n}\n');
    const status = runCli(['status'], env, project);
    assert.match(status.stdout, /^mode: shadow /);
    assert.match(
      status.stderr,
      new RegExp(
        `^stallguard: config: ${file.replace(/[.]/g, '\\.')} is not valid JSON \\(.+ at line 3, column 1\\); none of its settings apply\\n$`,
      ),
    );
    const check = doctorChecks(env, project).find((c) => c.area === 'config' && c.status === 'warn')!;
    assert.match(check.detail, /is not valid JSON \(.+ at line 3, column 1\)/);
    assert.equal(check.fix, `fix ${file} (or move it aside)`);
  });

  it('a misspelt setting is named with the one it resembles', () => {
    const { project, env } = scratch();
    writeFileSync(join(project, '.stallguard.json'), JSON.stringify({ repaet: 3, judge: { treshold: 0.7 } }));
    const { stderr } = runCli(['status'], env, project);
    assert.match(stderr, /: repaet is not a known setting \(did you mean "repeat"\?\); it is ignored\n/);
    assert.match(
      stderr,
      /: judge\.treshold is not a known setting \(did you mean "judge\.threshold"\?\); it is ignored\n/,
    );
  });

  it("a bad STALLGUARD_MODE is named as the environment's", () => {
    const { project, env } = scratch();
    const { stderr } = runCli(['status'], { ...env, STALLGUARD_MODE: 'loud' }, project);
    assert.equal(
      stderr,
      'stallguard: config: the environment: STALLGUARD_MODE is "loud", but it must be one of "shadow", "enforce", "off"; using "shadow" instead\n',
    );
  });
});
