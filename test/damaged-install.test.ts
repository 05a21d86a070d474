import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { claude, cleanEnv, scratch } from './support/hook-process.ts';

// A copy of the built package, damaged the ways installs get damaged (an interrupted copy, a disk that
// filled up, a hand edit, a half-finished upgrade): the hook still exits 0, prints nothing, and leaves a
// line in errors.log; doctor names the damaged file and the fix.

function copyOfDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sg-damaged-'));
  cpSync(resolve('dist'), join(dir, 'dist'), { recursive: true });
  return join(dir, 'dist');
}

const MAIN_SOURCE = readFileSync(resolve('dist/hook-main.cjs'), 'utf8');
/** Code of the built file's length, which passes the length check: what it does when run is the damage. */
const sameLength = (code: string) => code + ' '.repeat(MAIN_SOURCE.length - code.length);
const DAMAGES: [string, (main: string) => void][] = [
  ['hook-main.cjs missing', (main) => rmSync(main)],
  ['hook-main.cjs cut short', (main) => writeFileSync(main, MAIN_SOURCE.slice(0, Math.floor(MAIN_SOURCE.length / 2)))],
  ['hook-main.cjs empty', (main) => writeFileSync(main, '')],
  ['hook-main.cjs edited into a syntax error', (main) => writeFileSync(main, sameLength('function ('))],
  ['hook-main.cjs binary garbage', (main) => writeFileSync(main, Buffer.from([0xff, 0x00, 0x7b, 0x7d, 0x28]))],
  ['hook-main.cjs a folder', (main) => (rmSync(main), mkdirSync(main))],
  ['hook-main.cjs throws as it loads', (main) => writeFileSync(main, sameLength('throw new Error("broken build")'))],
  [
    'hook-main.cjs throws later',
    (main) =>
      writeFileSync(
        main,
        sameLength('setTimeout(() => { throw new Error("broken later") }, 1); Promise.reject(new Error("rejected"))'),
      ),
  ],
];

describe('a damaged install fails open', () => {
  for (const [name, damage] of DAMAGES) {
    it(`${name}: exit 0, nothing on stdout, a line in errors.log`, () => {
      const dist = copyOfDist();
      damage(join(dist, 'hook-main.cjs'));
      const { project, env, home } = scratch('enforce');
      const payload = claude.failure(project, 'npm test', '1 passed, 1 failed');
      const r = spawnSync(process.execPath, [join(dist, 'hook.cjs'), '--agent', 'claude'], {
        input: JSON.stringify(payload),
        env: cleanEnv(env),
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr, '');
      const log = readFileSync(join(home, 'errors.log'), 'utf8');
      // what throws once the code has run cannot be told from a bug of the hook's own: doctor, which checks the file's hash, says which
      if (name.endsWith('throws later'))
        assert.match(
          log,
          /hook: an unexpected error \(Error: (broken later|rejected)\); the call was let through; run: stallguard doctor/,
        );
      else
        assert.match(
          log,
          /hook: the installed hook is damaged \(.*hook-main\.cjs: .+\); every call is let through unchecked; run: stallguard doctor/,
        );
    });
  }

  it('with STALLGUARD_MODE=off, even a damaged hook writes nothing', () => {
    const dist = copyOfDist();
    rmSync(join(dist, 'hook-main.cjs'));
    const { project, env, home } = scratch();
    const r = spawnSync(process.execPath, [join(dist, 'hook.cjs')], {
      input: JSON.stringify(claude.prompt(project)),
      env: cleanEnv({ ...env, STALLGUARD_MODE: 'off' }),
      encoding: 'utf8',
    });
    assert.equal(r.status, 0);
    assert.equal(r.stdout, '');
    assert.equal(existsSync(home), false);
  });
});

describe('doctor on a damaged install', () => {
  const cases: [string, (main: string) => void, RegExp][] = [
    [
      'missing',
      (main) => rmSync(main),
      /hook-main\.cjs, the hook's code beside .*hook\.cjs, cannot be read: it does not exist/,
    ],
    [
      'cut short',
      (main) => writeFileSync(main, MAIN_SOURCE.slice(0, 1000)),
      /hook-main\.cjs is not the file .*hook\.cjs was built with \(cut short, edited, or from another version\)/,
    ],
  ];
  for (const [name, damage, detail] of cases) {
    it(`names hook-main.cjs ${name}, and the fix`, () => {
      const dist = copyOfDist();
      const { project, env } = scratch('enforce');
      const cli = (args: string[]) =>
        spawnSync(process.execPath, [join(dist, 'cli.js'), ...args], {
          cwd: project,
          env: cleanEnv(env),
          encoding: 'utf8',
        });
      assert.equal(cli(['install']).status, 0);
      damage(join(dist, 'hook-main.cjs'));
      const r = cli(['doctor', '--json']);
      const out = JSON.parse(r.stdout) as {
        ok: boolean;
        checks: { area: string; status: string; detail: string; fix?: string }[];
      };
      assert.equal(out.ok, false);
      const found = out.checks.find((c) => c.area === 'install' && c.status === 'fail');
      assert.ok(found, JSON.stringify(out.checks, null, 1));
      assert.match(found.detail, detail);
      assert.match(found.fix!, /reinstall stallguard/);
    });
  }

  it('says the installed hook is whole when it is', () => {
    const dist = copyOfDist();
    const { project, env } = scratch('enforce');
    spawnSync(process.execPath, [join(dist, 'cli.js'), 'install'], { cwd: project, env: cleanEnv(env) });
    const r = spawnSync(process.execPath, [join(dist, 'cli.js'), 'doctor', '--json'], {
      cwd: project,
      env: cleanEnv(env),
      encoding: 'utf8',
    });
    const checks = (JSON.parse(r.stdout) as { checks: { area: string; status: string; detail: string }[] }).checks;
    assert.ok(
      checks.some((c) => c.area === 'install' && c.status === 'ok' && c.detail.includes(join(dist, 'hook.cjs'))),
      JSON.stringify(checks, null, 1),
    );
  });
});
