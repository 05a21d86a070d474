import { spawnSync } from 'node:child_process';
import { onPath } from './which.ts';

// Claude Code lists each call of a batch with its result at the batch's end (PostToolBatch's tool_calls) from
// about 2.1.145, by the reports of other hook tools (before it, 2.1.101 and later ignore the event and older ones
// reject a settings file that names it); the e2e tests run 2.1.197. An older Claude Code on PATH gets PostToolUse
// as well, or the calls that succeed would go unobserved. With none on PATH the newer layout is written: Claude
// Code updates itself.

const FIRST_WITH_BATCH_RESULTS = [2, 1, 145] as const;

/** The version `claude --version` prints, when a Claude Code is on PATH and says one. */
export function claudeVersion(env: NodeJS.ProcessEnv): number[] | undefined {
  const claude = onPath('claude', env);
  if (!claude) return undefined;
  const r = spawnSync(claude, ['--version'], { env, encoding: 'utf8', timeout: 5000 });
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(r.stdout ?? '');
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Whether the Claude Code on PATH lists results at a batch's end; true when there is none to ask. */
export function batchListsResults(env: NodeJS.ProcessEnv): boolean {
  const v = claudeVersion(env);
  if (!v) return true;
  for (const [i, first] of FIRST_WITH_BATCH_RESULTS.entries()) if (v[i] !== first) return v[i]! > first;
  return true;
}
