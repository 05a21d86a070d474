import { spawnSync } from 'node:child_process';
import { type Check, ok, warn } from './check.ts';
import type { Installed } from './hooks.ts';

// What around the hook changes what it can do: the node that runs it, and git.

export function checkNode(hooks: Installed[], env: NodeJS.ProcessEnv): Check[] {
  // a hook command that clears the variable itself (installed on Node 20 through a shell) does not pay for
  // it; with nothing installed, the command install would write for Claude Code clears it too
  const nodes = hooks.length > 0 ? [...new Set(hooks.map((h) => h.node))] : [process.execPath];
  const out: Check[] = [];
  for (const node of nodes) {
    const r = spawnSync(node, ['-v'], { encoding: 'utf8', env: { PATH: env.PATH } });
    const version = r.stdout?.trim() ?? '';
    const major = Number(/^v(\d+)/.exec(version)?.[1]);
    const paying = hooks.filter((h) => h.node === node && !h.clearsCerts);
    if (env.NODE_EXTRA_CA_CERTS && major === 20 && paying.length > 0) {
      const fix = paying.every((h) => h.installClears)
        ? 'run stallguard install again: the command it writes now clears the ' +
          'variable for the hook (and gives it back to the optional LLM judge)'
        : "this agent's hook command cannot clear it: unset NODE_EXTRA_CA_CERTS " +
          "in the agent's environment, or run the hook with Node 22 or later";
      out.push(
        warn(
          'node',
          `${node} is ${version} and NODE_EXTRA_CA_CERTS is set: on ` +
            'Node 20 that adds about 80 ms to the start of every hook call',
          fix,
        ),
      );
    } else out.push(ok('node', `${node} ${version || '(version unknown)'}`));
  }
  return out;
}

export function checkGit(env: NodeJS.ProcessEnv): Check[] {
  const r = spawnSync('git', ['--version'], { encoding: 'utf8', env });
  if (r.error || r.status !== 0) {
    return [
      warn(
        'git',
        'git is not on PATH: without the working-tree fingerprint, a ' +
          'failing test re-run with nothing changed looks like one after a fix',
        'install git, or put it on the PATH the agent runs with',
      ),
    ];
  }
  return [ok('git', r.stdout.trim())];
}
