import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type HookOutput, runHook } from '../../src/hook/run-hook.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The captured hook payloads of the real agent CLIs (e2e/*-payloads.e2e.test.ts writes and checks them). */
export const FIXTURES = join(ROOT, 'test', 'fixtures', 'payloads');

/** A real hook payload captured from an agent CLI. */
export function sample(name: string): Record<string, unknown> {
  const file = join(FIXTURES, name);
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

/** A fresh STALLGUARD_HOME in enforce mode, optionally with a user config. */
export function tempHome(config: Record<string, unknown> = {}): string {
  const home = mkdtempSync(join(tmpdir(), 'sg-home-'));
  writeFileSync(join(home, 'config.json'), JSON.stringify({ mode: 'enforce', ...config }));
  return home;
}

/** Runs payloads through the hook's own code path (detection, the session log, rendering), in process. */
export class Hook {
  readonly home: string;
  constructor(
    config: Record<string, unknown> = {},
    private readonly argv: string[] = [],
    private readonly env: NodeJS.ProcessEnv = {},
  ) {
    this.home = tempHome(config);
  }

  run(payload: Record<string, unknown>): HookOutput {
    return runHook({
      stdin: JSON.stringify(payload),
      argv: this.argv,
      env: { HOME: this.home, ...this.env, STALLGUARD_HOME: this.home },
    });
  }

  /** The parsed JSON the agent would read on stdout, or undefined for an empty answer. */
  answer(payload: Record<string, unknown>): Record<string, unknown> | undefined {
    const { stdout } = this.run(payload);
    return stdout ? (JSON.parse(stdout) as Record<string, unknown>) : undefined;
  }
}

export type Answer = Record<string, unknown> | undefined;

/**
 * An agent stuck on one call: each attempt sends `pre`, then `post` unless the hook denied the call (a
 * denied call never runs, so the agent reports no result for it). The answers, one pair per attempt.
 */
export function stuckAgent(
  hook: Hook,
  pre: Record<string, unknown>,
  post: Record<string, unknown>,
  attempts: number,
  isDeny: (a: Answer) => boolean,
): { before: Answer; after: Answer }[] {
  const turns: { before: Answer; after: Answer }[] = [];
  for (let i = 0; i < attempts; i++) {
    const before = hook.answer(pre);
    turns.push({ before, after: isDeny(before) ? undefined : hook.answer(post) });
  }
  return turns;
}

/** The index of the first attempt whose answer passes `test`, or -1. */
export function firstWhere(
  turns: { before: Answer; after: Answer }[],
  test: (t: { before: Answer; after: Answer }) => boolean,
): number {
  return turns.findIndex(test);
}
