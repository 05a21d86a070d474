import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runHook } from '../hook/run-hook.ts';

export const summary = 'the hook itself';

/** `stallguard hook`: the same as the bundled hook file, for agents configured through the CLI. */
export function run(argv: string[]): number {
  let stdout = '';
  try {
    const stdin = process.stdin.isTTY ? '' : readFileSync(0, 'utf8');
    stdout = runHook({ stdin, argv, env: process.env, selfDir: dirname(fileURLToPath(import.meta.url)) }).stdout;
  } catch {
    stdout = '';
  }
  if (stdout) process.stdout.write(stdout + '\n');
  return 0;
}
