import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { claude, runHookAsync } from './support/hook-process.ts';
import { type Case, harmlessCases, seedFiles, seedLinks, tamperCases, type World } from './support/tamper-cases.ts';

// Self-protection's examples (test/support/tamper-cases.ts) through the real hook process, in enforce
// mode, on a machine written to a scratch folder: stallguard installed for every agent beside the
// person's own settings, a settings file linked into a dotfiles folder. Every tamper case is denied, every
// harmless one allowed, and the hook logs no error for any of them.

const dir = mkdtempSync(join(tmpdir(), 'sg-guard-'));
const w: World = {
  home: join(dir, 'home'),
  proj: join(dir, 'home', 'proj'),
  sg: join(dir, 'home', '.stallguard'),
  self: resolve('dist'),
  root: resolve('.'),
  node: process.execPath,
  claudeConfig: join(dir, 'claude-config'),
  codexHome: join(dir, 'codex-home'),
};
for (const [path, text] of Object.entries(seedFiles(w))) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
for (const [link, target] of Object.entries(seedLinks(w))) {
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(target, link);
}
const env = { HOME: w.home, STALLGUARD_HOME: w.sg, CLAUDE_CONFIG_DIR: w.claudeConfig, CODEX_HOME: w.codexHome };

/** Two hook processes at a time: the machine has two cores. */
async function answers(cases: Case[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const queue = cases.map((c, i) => ({ c, session: `guard-${i}` }));
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [tool, input] = next.c.call;
      const run = await runHookAsync(claude.pre(w.proj, tool, input, next.session), env);
      assert.equal(run.status, 0);
      out.set(next.c.name, run.stdout);
    }
  };
  await Promise.all([worker(), worker()]);
  return out;
}

function decision(stdout: string): { permissionDecision?: string; permissionDecisionReason?: string } {
  return stdout.trim() ? JSON.parse(stdout).hookSpecificOutput : {};
}

describe('self-protection through the real hook process, in enforce mode', async () => {
  const tamper = tamperCases(w);
  const harmless = harmlessCases(w);
  const results = await answers([...tamper.filter((c) => !c.system), ...harmless]);

  // system-wide files, which a scratch folder cannot hold, are src/guard/guard.test.ts's
  for (const c of tamper.filter((t) => !t.system)) {
    it(`denies ${c.name}`, () => {
      const d = decision(results.get(c.name)!);
      assert.equal(d.permissionDecision, 'deny', JSON.stringify(c.call));
      assert.match(d.permissionDecisionReason!, /^stallguard: this call would .*The person can/);
    });
  }
  for (const c of harmless) it(`allows ${c.name}`, () => assert.equal(results.get(c.name), '', JSON.stringify(c.call)));

  it('logs no error, and the ledger records each refusal with what was refused', () => {
    assert.equal(existsSync(join(w.sg, 'errors.log')) ? readFileSync(join(w.sg, 'errors.log'), 'utf8') : '', '');
    const decisions = readdirSync(join(w.sg, 'sessions')).flatMap((f) =>
      readFileSync(join(w.sg, 'sessions', f), 'utf8')
        .split('\n')
        .filter((l) => l.includes('"t":"d"'))
        .map((l) => JSON.parse(l).d),
    );
    assert.equal(decisions.length, tamper.filter((c) => !c.system).length);
    for (const d of decisions) {
      assert.equal(d.code, 'SELF_PROTECT');
      assert.match(d.signals[0].detail, /^(?:own|entry|switch|uninstall): \S/);
    }
  });
});
