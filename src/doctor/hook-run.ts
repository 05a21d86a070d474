import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Check, fail, ok, warn } from './check.ts';
import type { Installed } from './hooks.ts';

// The hook run for real, as the agent runs it, on a sample payload, with a scratch STALLGUARD_HOME so
// that nothing lands in the person's ledger: it must exit 0, print nothing, record the call, and do it
// in a sane time.

const SLOW_MS = 500;
const TOO_SLOW_MS = 5000;

export function checkHookRuns(
  hooks: Pick<Installed, 'node' | 'hook' | 'args'>[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Check[] {
  const out: Check[] = [];
  for (const { node, hook, args = [] } of hooks) {
    const home = mkdtempSync(join(tmpdir(), 'stallguard-doctor-'));
    try {
      const payload = {
        session_id: 'doctor',
        hook_event_name: 'PreToolUse',
        cwd,
        tool_name: 'Read',
        tool_input: { file_path: join(cwd, 'README.md') },
        tool_use_id: 'toolu_doctor',
        prompt_id: 'doctor',
        transcript_path: '/dev/null',
        permission_mode: 'default',
      };
      const start = process.hrtime.bigint();
      const r = spawnSync(node, [hook, ...args, '--agent', 'claude'], {
        input: JSON.stringify(payload),
        env: { ...env, STALLGUARD_HOME: home, STALLGUARD_MODE: 'enforce' },
        encoding: 'utf8',
        timeout: TOO_SLOW_MS * 2,
      });
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const what = `${node} ${hook}`;
      // the config's problems are the person's, listed by the config check: only the hook's own errors count here
      const errors = existsSync(join(home, 'errors.log'))
        ? readFileSync(join(home, 'errors.log'), 'utf8')
            .split('\n')
            .filter((l) => l.trim() && !/^\S+ config: /.test(l))
            .at(-1)
        : undefined;
      const recorded = existsSync(join(home, 'sessions')) && readdirSync(join(home, 'sessions')).length > 0;
      if (r.error || r.status !== 0)
        out.push(
          fail(
            'hook run',
            `${what} failed (${r.error ? r.error.message : `exit ${r.status}`}): ` +
              `${(r.stderr ?? '').trim().split('\n')[0] ?? ''}`,
            'run stallguard install again; if it keeps failing, report it with this output',
          ),
        );
      else if (r.stdout.trim() !== '')
        out.push(
          fail(
            'hook run',
            `${what} printed something for a call it should allow: ${r.stdout.trim().slice(0, 200)}`,
            'report it: the hook must print nothing for an ordinary call',
          ),
        );
      else if (errors || !recorded)
        out.push(
          fail(
            'hook run',
            `${what} ran but recorded nothing${errors ? `: ${errors}` : ''}`,
            'report it with this output',
          ),
        );
      else if (ms > TOO_SLOW_MS)
        out.push(
          fail(
            'hook run',
            `${what} took ${Math.round(ms)} ms for one call`,
            'see the node check below; a slow disk or a loaded machine slows every tool call by this much',
          ),
        );
      else if (ms > SLOW_MS)
        out.push(
          warn(
            'hook run',
            `${what} took ${Math.round(ms)} ms for one call (usually 40 to 80 ms)`,
            'see the node check below; every tool call waits this long',
          ),
        );
      else out.push(ok('hook run', `${what} answers a sample call in ${Math.round(ms)} ms`));
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  return out;
}
