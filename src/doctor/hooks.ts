import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import type { Scope } from '../install/target.ts';
import { ALL_TARGETS } from '../install/targets.ts';
import { lexShell } from '../core/shell-lex.ts';
import { type Check, errnoText, fail, ok, warn } from './check.ts';

// Where stallguard is registered, and whether each registration can run: the settings file parses, every
// event is there, and the node and hook file the command names exist. A hook command that cannot start
// fails open in every agent: the guard is silently off.

export interface Installed {
  node: string;
  hook: string;
  /** The command clears NODE_EXTRA_CA_CERTS for node (it does on Node 20 through a shell). */
  clearsCerts: boolean;
}

function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function checkHooks(cwd: string, env: NodeJS.ProcessEnv): { checks: Check[]; installed: Installed[] } {
  const checks: Check[] = [];
  const installed: Installed[] = [];
  for (const target of ALL_TARGETS) {
    if (!target) continue;
    // the scopes the agent reads hooks from, where the target says (Copilot reads only the project's)
    const scopes = 'scopes' in target ? (target.scopes as readonly Scope[]) : (['project', 'user'] as const);
    for (const scope of scopes) {
      const file = target.settingsFile(scope, cwd, env);
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') checks.push(fail('hooks', `${file} cannot be read: ${errnoText(e)}`, `make it readable; ${target.label} cannot read it either`));
        continue;
      }
      const where = `${target.label} (${scope}, ${file})`;
      let command: string | undefined;
      try {
        command = target.installed(text, file);
      } catch (e) {
        checks.push(fail('hooks', `${where}: ${(e as Error).message}`, `fix the file; ${target.label} may ignore all of it, hooks included`));
        continue;
      }
      if (/"disableAllHooks"\s*:\s*true/.test(text)) checks.push(fail('hooks', `${where}: disableAllHooks is true, so no hook runs`, `remove "disableAllHooks" from ${file}`));
      if (!command) {
        if (/#\s*stallguard/.test(text)) checks.push(warn('hooks', `${where}: stallguard is registered for only some of the events it needs`, `run: stallguard install${scope === 'user' ? ' --scope user' : ''} --agent ${target.agent}`));
        continue;
      }
      // the command may start with environment assignments (NODE_EXTRA_CA_CERTS= on Node 20), and with the
      // daemon it is `<daemon alive> || node hook ...`: the node run is the simple command naming the hook
      const run = lexShell(command).find((c) => c.words.some((w) => /hook\.cjs$/.test(w)));
      const [node, hook] = (run?.words ?? []).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
      const missing = [node && !runnable(node) ? `node (${node})` : '', hook && !existsSync(hook) ? `the hook file (${hook})` : ''].filter(Boolean);
      if (!node || !hook) checks.push(warn('hooks', `${where}: the command is not one stallguard wrote: ${command}`, `run: stallguard install${scope === 'user' ? ' --scope user' : ''} --agent ${target.agent}`));
      else if (missing.length > 0) checks.push(fail('hooks', `${where}: the command runs ${missing.join(' and ')}, which ${missing.length > 1 ? 'do' : 'does'} not exist; every call is let through unchecked`, `run: stallguard install${scope === 'user' ? ' --scope user' : ''} --agent ${target.agent}`));
      else {
        checks.push(ok('hooks', `${where}: installed`));
        installed.push({ node, hook, clearsCerts: /(?:^|\s)NODE_EXTRA_CA_CERTS=\s/.test(command) });
      }
    }
  }
  if (installed.length === 0 && checks.every((c) => c.status !== 'fail')) checks.push(warn('hooks', 'stallguard is not installed for any agent here', 'run: stallguard install (or --scope user for every project)'));
  return { checks, installed };
}
