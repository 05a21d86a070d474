import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { codexTomlTarget } from '../install/codex-toml.ts';
import { CLAUDE, CLAUDE_WITH_POST_TOOL_USE, claudeTarget } from '../install/claude.ts';
import { installedGroups, strayEvents } from '../install/hook-groups.ts';
import { batchListsResults } from '../install/claude-version.ts';
import { isIgnored, isTracked, repoOf } from '../install/git.ts';
import { installFiles } from '../install/place.ts';
import { onPath } from '../install/which.ts';
import { ALL_TARGETS, TARGETS } from '../install/targets.ts';
import { lexShell } from '../shell/lex.ts';
import { errnoText } from '../core/errno.ts';
import { type Check, fail, ok, warn } from './check.ts';
import type { DaemonUse } from './daemon.ts';

// Where stallguard is registered, and whether each registration can run: the settings file parses, every
// event is there, and the node and hook file the command names exist. A hook command that cannot start
// fails open in every agent: the guard is silently off.

export interface Installed {
  node: string;
  hook: string;
  /** The command clears NODE_EXTRA_CA_CERTS for node (it does on Node 20 through a shell). */
  clearsCerts: boolean;
  /** The command stallguard install writes now for this agent clears it (the agent runs it through a shell). */
  installClears: boolean;
  /** Arguments before the hook's own: `hook` for the CLI that a shared install runs from PATH. */
  args?: string[];
  /** The daemon the command stands in for (`--serve-port N`), when it was installed with one. */
  daemon?: DaemonUse;
}

/** The daemon an installed command names: its `--serve-port`, and the bash first stage before node, if any. */
function daemonOf(runs: string[][], where: string, http: boolean): DaemonUse | undefined {
  const words = runs.flat();
  const i = words.indexOf('--serve-port');
  const port = i === -1 ? NaN : Number(words[i + 1]);
  if (!Number.isInteger(port)) return undefined;
  const client = runs.find((w) => (w[0] === '.' || w[0] === 'bash') && /\.sh$/.test(w[1] ?? ''))?.[1];
  return { where, port, http, ...(client ? { client } : {}) };
}

function runnable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The shared command's run of `stallguard hook`, as the shell in the agent finds it. */
function sharedRun(words: string[], env: NodeJS.ProcessEnv): { node?: string; hook?: string } | undefined {
  if (words[0] !== 'stallguard' || words[1] !== 'hook') return undefined;
  const bin = onPath('stallguard', env);
  // the bin is dist/cli.js with `#!/usr/bin/env node`: the node on PATH runs it
  return { node: onPath('node', env), hook: bin && realpathSync(bin) };
}

export function checkHooks(cwd: string, env: NodeJS.ProcessEnv): { checks: Check[]; installed: Installed[] } {
  const checks: Check[] = [];
  const installed: Installed[] = [];
  const repo = repoOf(cwd);
  let plugins = 0;
  /** Whether the Claude Code on PATH lists results at a batch's end (install/claude-version.ts). */
  let lists: boolean | undefined;
  for (const agentTarget of Object.values(TARGETS)) {
    const registered: string[] = [];
    // every form the agent may be registered in (Codex: hooks.json and config.toml)
    const places = ALL_TARGETS.filter((t) => t.agent === agentTarget.agent).flatMap((target) =>
      installFiles(target, cwd, env).map((at) => ({ target, ...at })),
    );
    for (const { target, where: scope, file } of places) {
      let text: string;
      try {
        text = readFileSync(file, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
          checks.push(
            fail(
              'hooks',
              `${file} cannot be read: ${errnoText(e)}`,
              `make it readable; ${target.label} cannot read it either`,
            ),
          );
        continue;
      }
      const where = `${target.label} (${scope}, ${file})`;
      const agentArg = target.agent === 'claude' ? '' : ` --agent ${target.agent}`;
      const scopeArg = scope === 'local' ? '' : ` --scope ${scope}`;
      const tomlArg = target === codexTomlTarget ? ' --config-toml' : '';
      const reinstall = `run: stallguard install${scopeArg}${agentArg}${tomlArg}`;
      let command: string | undefined;
      try {
        command = target.installed(text, file);
      } catch (e) {
        checks.push(
          fail(
            'hooks',
            `${where}: ${(e as Error).message}`,
            `fix the file; ${target.label} may ignore all of it, hooks included`,
          ),
        );
        continue;
      }
      if (/"disableAllHooks"\s*:\s*true/.test(text))
        checks.push(
          fail('hooks', `${where}: disableAllHooks is true, so no hook runs`, `remove "disableAllHooks" from ${file}`),
        );
      if (!command) {
        if (/#\s*stallguard/.test(text))
          checks.push(
            warn('hooks', `${where}: stallguard is registered for only some of the events it needs`, reinstall),
          );
        continue;
      }
      registered.push(file);
      if (target === claudeTarget) {
        // asked once, and only where a Claude Code settings file holds stallguard: it starts a process
        lists ??= batchListsResults(env);
        if (!lists && !installedGroups(text, file, CLAUDE_WITH_POST_TOOL_USE))
          checks.push(
            warn(
              'hooks',
              `${where}: the Claude Code on PATH is older than 2.1.145, whose batch ends list no results, and ` +
                'stallguard is not on PostToolUse: the calls that succeed go unobserved',
              reinstall,
            ),
          );
        const stray = lists ? strayEvents(text, file, CLAUDE) : [];
        if (stray.length > 0)
          checks.push(
            warn(
              'hooks',
              `${where}: stallguard is also registered on ${stray.join(', ')}, as an earlier install did; ` +
                'PostToolBatch now brings every result, so each call pays a hook event it does not need',
              reinstall,
            ),
          );
      }
      const committed = () => !!repo && scope !== 'user' && (isTracked(repo, file) || !isIgnored(repo, file));
      if (target.plugin) {
        // an in-process plugin: the file loads the bundle by its absolute path, which must still be there
        if (!existsSync(command)) {
          checks.push(
            fail(
              'hooks',
              `${where}: the plugin file loads ${command}, which does not ` +
                `exist; ${target.label} fails to load it and nothing is checked`,
              reinstall,
            ),
          );
          continue;
        }
        checks.push(ok('hooks', `${where}: installed (plugin ${command})`));
        plugins++;
        if (committed())
          checks.push(
            warn(
              'hooks',
              `${where}: the plugin file names this machine's copy of stallguard, in a file git would commit`,
              `stallguard uninstall --agent ${target.agent}, then stallguard ` +
                `install --agent ${target.agent} (it keeps the file out of git)`,
            ),
          );
        continue;
      }
      // the command may start with environment assignments (NODE_EXTRA_CA_CERTS= on Node 20), and with the
      // daemon it is `<daemon alive> || node hook ...`; a shared one
      // is `<stallguard on PATH> || exit 0; stallguard hook ...`
      const runs = lexShell(command).map((c) => c.words.filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)));
      const shared = runs.map((w) => sharedRun(w, env)).find(Boolean);
      const clearsCerts = /(?:^|\s)NODE_EXTRA_CA_CERTS=\s/.test(command);
      const installClears = !!target.shell && process.platform !== 'win32';
      if (shared) {
        if (!shared.hook || !shared.node) {
          checks.push(
            fail(
              'hooks',
              `${where}: the shared command runs \`stallguard\` from ` +
                `PATH, and ${shared.hook ? 'node' : 'stallguard'} is not on ` +
                'PATH here: the hook steps aside, every call goes unchecked',
              'install stallguard on this machine (from a clone of it: npm install && npm install -g .)',
            ),
          );
        } else {
          checks.push(ok('hooks', `${where}: installed for the whole team, running ${shared.hook} from PATH`));
          installed.push({ node: shared.node, hook: shared.hook, args: ['hook'], clearsCerts, installClears });
        }
        continue;
      }
      const [node, hook] = runs.find((w) => w.some((x) => /hook\.cjs$/.test(x))) ?? [];
      const missing = [
        node && !runnable(node) ? `node (${node})` : '',
        hook && !existsSync(hook) ? `the hook file (${hook})` : '',
      ].filter(Boolean);
      if (!node || !hook)
        checks.push(warn('hooks', `${where}: the command is not one stallguard wrote: ${command}`, reinstall));
      else if (missing.length > 0)
        checks.push(
          fail(
            'hooks',
            `${where}: the command runs ${missing.join(' and ')}, ` +
              `which ${missing.length > 1 ? 'do' : 'does'} not exist; every call is let through unchecked`,
            reinstall,
          ),
        );
      else {
        checks.push(ok('hooks', `${where}: installed`));
        const daemon = daemonOf(runs, where, target.daemon === 'http');
        installed.push({ node, hook, clearsCerts, installClears, ...(daemon ? { daemon } : {}) });
        if (committed()) {
          checks.push(
            warn(
              'hooks',
              `${where}: the command names this machine's node and hook file, in a file ` +
                `git would commit: a teammate's agent would run paths that may not exist there`,
              `stallguard uninstall --scope ${scope}${agentArg}, ` +
                'then stallguard install (for you alone) or stallguard install --scope project (for the team)',
            ),
          );
        }
      }
    }
    if (registered.length > 1) {
      checks.push(
        warn(
          'hooks',
          `${agentTarget.label}: stallguard is registered in ${registered.join(' and ')}; all of them run, ` +
            `so every call is counted ${registered.length === 2 ? 'twice' : `${registered.length} times`}`,
          `keep one: stallguard uninstall${agentTarget.agent === 'claude' ? '' : ` --agent ${agentTarget.agent}`} ` +
            '--scope <the others>',
        ),
      );
    }
  }
  if (installed.length === 0 && plugins === 0 && checks.every((c) => c.status !== 'fail'))
    checks.push(
      warn(
        'hooks',
        'stallguard is not installed for any agent here',
        'run: stallguard install (or --scope user for every project)',
      ),
    );
  return { checks, installed };
}
