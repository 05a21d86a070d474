import { stallguardHome } from '../config/load.ts';
import { hookPath } from '../install/hook-command.ts';
import type { Check } from './check.ts';
import { checkBundle } from './bundle.ts';
import { checkConfig } from './config.ts';
import { checkDaemon } from './daemon.ts';
import { checkErrors } from './errors.ts';
import { checkGit, checkNode } from './environment.ts';
import { checkFileSystem } from './filesystem.ts';
import { checkHome } from './home.ts';
import { checkHookRuns } from './hook-run.ts';
import { checkHooks } from './hooks.ts';

const REINSTALL =
  "reinstall stallguard from where it came (npm install -g stallguard, the agent's " +
  'plugin or extension update, or npm run build in a clone), then run: stallguard install';

/** Every check, in the order a person would fix things. */
export function runDoctor(cwd: string, env: NodeJS.ProcessEnv): Check[] {
  const home = stallguardHome(env);
  const hooks = checkHooks(cwd, env);
  // with nothing installed, the hook beside this CLI is the one install would register
  const toRun =
    hooks.installed.length > 0
      ? dedupe(hooks.installed.map(({ node, hook, args }) => ({ node, hook, args })))
      : [{ node: process.execPath, hook: hookPath() }];
  const bundles = [...new Set(toRun.map((h) => h.hook))].flatMap((hook) => checkBundle(hook, REINSTALL));
  return [
    ...checkHome(home),
    ...checkFileSystem(home, env),
    ...checkConfig(cwd, env, home),
    ...hooks.checks,
    ...checkDaemon(
      hooks.installed.flatMap((h) => (h.daemon ? [h.daemon] : [])),
      home,
      env,
    ),
    ...bundles,
    ...checkHookRuns(toRun, cwd, env),
    ...checkErrors(home),
    ...checkNode(hooks.installed, env),
    ...checkGit(env),
  ];
}

function dedupe<T>(list: T[]): T[] {
  const seen = new Set<string>();
  return list.filter((x) => !seen.has(JSON.stringify(x)) && !!seen.add(JSON.stringify(x)));
}
