import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stallguardHome } from '../config/load.ts';
import { logError, runHookAsync } from '../hook/run-hook.ts';
import { readStdin } from '../hook/stdin.ts';

export const summary = 'the hook itself';

/** `stallguard hook`: the same as the bundled hook file, for agents configured through the CLI. */
export async function run(argv: string[]): Promise<number> {
  let stdout = '';
  try {
    const stdin = await readStdin();
    stdout = (await runHookAsync({ stdin, argv, env: process.env, selfDir: dirname(fileURLToPath(import.meta.url)) })).stdout;
  } catch (error) {
    logError(stallguardHome(), 'hook', error);
  }
  if (stdout) process.stdout.write(stdout + '\n');
  return 0;
}
