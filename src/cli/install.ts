import { relative } from 'node:path';
import type { AgentName } from '../types.ts';
import { AGENTS } from '../hook/run-hook.ts';
import {
  type Change,
  changes,
  describeChange,
  excludeOwner,
  uninstallChange,
  writeInstall,
  writeUninstall,
} from '../install/apply.ts';
import { addExclude, removeExclude } from '../install/exclude.ts';
import { readText } from '../install/files.ts';
import { isIgnored, isTracked, repoOf, repoPath } from '../install/git.ts';
import { daemonWay } from './_daemon.ts';
import { distFile, hookCommand, hookPath, sharedCommand } from '../install/hook-command.ts';
import { fileAt, installFiles, isShared, placesOf, type Where, WHERE } from '../install/place.ts';
import { addRules, removeRules } from '../install/rules-block.ts';
import type { InstallTarget, Scope } from '../install/target.ts';
import { ALL_TARGETS, TARGETS } from '../install/targets.ts';
import { codexTomlTarget } from '../install/codex-toml.ts';
import { onPath } from '../install/which.ts';
import { defaultPort, hookUrl } from '../serve/address.ts';
import { runningDaemon } from '../hook/daemon-file.ts';
import { heldByOther, portHolder } from '../hook/port-holder.ts';
import { loadConfig, stallguardHome } from '../config/load.ts';
import { RULES_TEXT } from './rules.ts';
import { oneOf, parseOptions, parsePort } from './_args.ts';
import { UsageError } from './_errors.ts';

export const summary = 'register the hook with an agent';

const HELP = `usage: stallguard install [--agent ${AGENTS.join('|')}] [--scope local|project|user]
                          [--config-toml] [--rules] [--no-daemon | --port N] [--dry-run]

Registers stallguard's hook in the agent's settings (default: Claude Code, --scope local):

  --scope local    this project, for you alone: the command runs this machine's node and hook bundle, so
                   it goes where git does not look: Claude Code's .claude/settings.local.json; for the
                   other agents their project file, kept out of git in .git/info/exclude
  --scope project  this project, for the whole team: the agent's project file, to be committed; the
                   command runs \`stallguard\` from each teammate's PATH (each needs it installed)
  --scope user     every project of yours: the agent's user settings

  claude    .claude/settings.local.json, .claude/settings.json, ~/.claude/settings.json
  codex     .codex/hooks.json (local and project), $CODEX_HOME/hooks.json (default ~/.codex);
            with --config-toml: [[hooks.*]] tables at the end of .codex/config.toml or $CODEX_HOME/config.toml
  gemini    .gemini/settings.json (local and project), ~/.gemini/settings.json
  cursor    .cursor/hooks.json (local and project), ~/.cursor/hooks.json
  copilot   .github/hooks/stallguard.json (local and project), $COPILOT_HOME/hooks/stallguard.json (default ~/.copilot)
  qwen      .qwen/settings.json (local and project), $QWEN_HOME/settings.json (default ~/.qwen)
  opencode  .opencode/plugins/stallguard.js (local), ~/.config/opencode/plugins/stallguard.js: a plugin
  pi        .pi/extensions/stallguard.js (local), ~/.pi/agent/extensions/stallguard.js: an extension

opencode and pi load stallguard in-process from a file that names this machine's copy of it, so they
install for you alone (local or user), never for the team.

Idempotent: running it again updates the command in place. Every other setting and comment in the file is
kept, and uninstall gives the files back as they were. --rules also adds the stallguard rule to the agent's
instruction file (CLAUDE.md, AGENTS.md, GEMINI.md, QWEN.md). --dry-run prints the change and writes nothing.

The daemon (local and user scope, POSIX; not for Cursor, opencode or pi): each hook event goes to
\`stallguard serve\` on 127.0.0.1 (port ${defaultPort()} for this user, or --port N), which runs the same hook
code warm, instead of a node start per event: Claude Code through its http hook, Codex, Gemini CLI, Copilot
CLI and Qwen Code through a bash first stage of the hook command. While the daemon is down, the command
runs node as without it, and starts the daemon. --no-daemon registers the command hook alone (the way back
too: install again with or without it).`;

export function resolveTarget(command: string, agent: string | undefined): InstallTarget {
  return TARGETS[oneOf<AgentName>(command, 'agent', agent, AGENTS, 'claude')];
}

export function resolveWhere(command: string, target: InstallTarget, scope: string | undefined): Where {
  const chosen = oneOf<Where>(command, 'scope', scope, WHERE, 'local');
  const places = placesOf(target);
  if (!places.includes(chosen))
    throw new UsageError(`${command}: ${target.label} reads hooks only at --scope ${places.join(' or ')}`);
  return chosen;
}

/** The agent's scope for a place: a personal install in a project is still the project's. */
export function scopeOf(where: Where): Scope {
  return where === 'user' ? 'user' : 'project';
}

export function show(file: string): string {
  const rel = relative(process.cwd(), file);
  return rel && !rel.startsWith('..') ? rel : file;
}

/** A change install makes, and how it is written: with a receipt, or (undoing a line of its own) as uninstall would. */
interface Step {
  change: Change;
  write(home: string): void;
}

/** A change toward `after`, recorded so that uninstall can take it back; `takeOut` removes stallguard's part. */
function adding(agent: string, file: string, after: (text: string) => string, takeOut: (text: string) => string): Step {
  const before = readText(file);
  const change = { agent, file, before, after: after(before ?? '') };
  return { change, write: (home) => writeInstall(home, change, takeOut) };
}

export function run(argv: string[]): number {
  const { values } = parseOptions('install', argv, {
    agent: { type: 'string' },
    scope: { type: 'string' },
    rules: { type: 'boolean' },
    'config-toml': { type: 'boolean' },
    daemon: { type: 'boolean' },
    'no-daemon': { type: 'boolean' },
    port: { type: 'string' },
    'dry-run': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help) {
    console.log(HELP);
    return 0;
  }
  const agentTarget = resolveTarget('install', values.agent);
  if (values['config-toml'] && agentTarget.agent !== 'codex')
    throw new UsageError(`install: --config-toml is for Codex only (${agentTarget.label} has no config.toml hooks)`);
  const target = values['config-toml'] ? codexTomlTarget : agentTarget;
  const where = resolveWhere('install', target, values.scope);
  const project = process.cwd();
  const env = process.env;
  const file = fileAt(target, where, project, env);
  const rulesFile = values.rules ? target.rulesFile(scopeOf(where), project, env) : undefined;
  if (values.rules && !rulesFile)
    throw new UsageError(
      `install: ${target.label} keeps no instruction file at --scope ${where}; leave out --rules, or use --scope local`,
    );
  let way = daemonWay(values, target, where);
  // a plugin file imports the plugin by its path on this machine: there is no command to find on a teammate's PATH
  if (target.plugin && isShared(where))
    throw new UsageError(
      `install: ${target.label} loads stallguard from a file that names this machine's copy ` +
        'of it, so it installs for you alone; use --scope local (this project) or --scope user',
    );

  // a personal install names this machine's files: it must stay out of what git commits
  const repo = where === 'user' ? undefined : repoOf(project);
  if (where === 'local' && repo && isTracked(repo, file)) {
    throw new UsageError(
      `install: ${show(file)} is committed in git, so a personal install would put this machine's paths in it; ` +
        'install for the whole team with --scope project, or for yourself in every project with --scope user',
    );
  }
  const exclude = where === 'local' && repo && !isIgnored(repo, file) ? repo.exclude : undefined;

  const port = way && (values.port === undefined ? defaultPort() : parsePort('install', values.port));
  const notes: string[] = [];
  const home = stallguardHome(env);
  const holder = port ? portHolder(port) : undefined;
  if (port && typeof holder === 'object' && runningDaemon(home)?.port !== port) {
    const held = heldByOther(holder)
      ? `port ${port} on 127.0.0.1 is held by a program of another user (uid ${holder.uid})`
      : `port ${port} on 127.0.0.1 is taken by another program (the daemon of another STALLGUARD_HOME?)`;
    const again = `stallguard install${target.agent === 'claude' ? '' : ` --agent ${target.agent}`} --port N`;
    if (way === 'http') {
      // Claude Code would post every payload to whoever listens there, and miss the calls it cannot post
      const why = `${held}, which would receive every hook payload`;
      if (values.daemon) throw new UsageError(`install: ${why}; pick a free port with --port N`);
      notes.push(`Daemon: none, since ${why}. Pick a free port with: ${again}`);
      way = undefined;
    } else
      notes.push(
        `Daemon: ${held}, so the daemon cannot start there and every call starts node. Pick a free port with: ${again}`,
      );
  }
  // for an in-process plugin, what its file loads: the plugin beside this CLI
  const command = target.plugin
    ? distFile(target.plugin)
    : isShared(where)
      ? sharedCommand(target.agent, { shell: target.shell })
      : hookCommand(target.agent, undefined, undefined, {
          shell: target.shell,
          daemon: way && port ? { port, way } : undefined,
        });
  const url = way === 'http' && port ? hookUrl(port, target.agent) : undefined;
  const planned: Step[] = [
    adding(
      target.agent,
      file,
      (text) => target.add(text, file, command, url),
      (text) => target.remove(text, file),
    ),
  ];
  if (rulesFile) planned.push(adding(target.agent, rulesFile, (text) => addRules(text, RULES_TEXT), removeRules));
  if (repo && where === 'local' && exclude) {
    const path = repoPath(repo, file);
    planned.push(
      adding(
        excludeOwner(target.agent, path),
        repo.exclude,
        (text) => addExclude(text, path),
        (text) => removeExclude(text, path),
      ),
    );
  }
  if (repo && where === 'project') {
    // a personal install of the same file before: its line would keep the shared file out of git
    const path = repoPath(repo, file);
    const change = uninstallChange(home, excludeOwner(target.agent, path), repo.exclude, (text) =>
      removeExclude(text, path),
    );
    planned.push({ change, write: (h) => writeUninstall(h, change) });
  }
  const todo = planned.filter((p) => changes([p.change]).length > 0);

  if (values['dry-run']) {
    for (const p of todo) console.log(describeChange(p.change, show));
    if (todo.length === 0) console.log('stallguard install: nothing to change');
    return 0;
  }
  for (const p of todo) p.write(home);

  const registered = todo.some((p) => p.change.file === file);
  console.log(
    'stallguard: ' +
      `${registered ? `registered the ${target.plugin ? 'plugin' : 'hook'}` : 'already registered'} ` +
      `for ${target.label} in ${show(file)} (${target.events.join(', ')}).`,
  );
  for (const line of whereSays(where, file, target, {
    excluded: !!exclude,
    inRepo: !!repo,
    ignoredByGit: !!repo && !exclude && where === 'local',
  }))
    console.log(line);
  for (const other of alsoInstalled(target, file, project)) {
    console.log(
      `Note: stallguard is also registered for ${target.label} in ${show(other.file)}: ` +
        'both run, and every call would be counted twice. Remove one: stallguard ' +
        `uninstall${target.agent === 'claude' ? '' : ` --agent ${target.agent}`} --scope ${other.where}`,
    );
  }
  if (way && port) {
    const goes = url
      ? `the http hook goes to ${url}`
      : `the hook command hands each event to 127.0.0.1:${port} with bash`;
    console.log(
      `Daemon: ${goes}; ` +
        '`stallguard serve` starts on the first call that finds it down, and exits after 30 idle minutes ' +
        '(opt out: --no-daemon).',
    );
  }
  for (const note of notes) console.log(note);
  if (rulesFile) console.log(`stallguard: the rule is in ${show(rulesFile)}.`);
  const mode = loadConfig({ cwd: project }).config.mode;
  console.log(
    mode === 'enforce'
      ? 'Mode: enforce. Stalls are nudged, then stopped.'
      : `Mode: ${mode}. Decisions are recorded in ${home} and nothing in the agent changes. ` +
          'To act on them, set "mode": "enforce" in .stallguard.json or STALLGUARD_MODE=enforce.',
  );
  if (target.manualStep) console.log(target.manualStep);
  return 0;
}

/**
 * The other files of this project and user where the agent already runs
 * stallguard, in any of its forms (Codex: hooks.json and config.toml).
 */
export function alsoInstalled(target: InstallTarget, file: string, project: string): { where: Where; file: string }[] {
  return ALL_TARGETS.filter((form) => form.agent === target.agent).flatMap((form) =>
    installFiles(form, project, process.env).filter(({ file: other }) => {
      if (other === file) return false;
      try {
        const text = readText(other);
        return text !== undefined && form.installed(text, other) !== undefined;
      } catch {
        return false; // a file the agent cannot read either
      }
    }),
  );
}

/** What the person should know about where the hook went: whose it is, and what git makes of it. */
function whereSays(
  where: Where,
  file: string,
  target: InstallTarget,
  git: { excluded: boolean; inRepo: boolean; ignoredByGit: boolean },
): string[] {
  const runs = target.plugin
    ? `the file loads this machine's ${distFile(target.plugin)}`
    : `the command runs this machine's node and ${hookPath()}`;
  if (where === 'user') return [`For you, in every project: ${runs}.`];
  if (where === 'local') {
    const kept = git.excluded
      ? 'kept out of git by a line in .git/info/exclude'
      : git.ignoredByGit
        ? 'ignored by git'
        : 'not in a git repository';
    return [
      `For you, in this project: ${runs}, so ${show(file)} ` +
        `is ${kept}.${target.plugin ? '' : ' For the whole team: stallguard install --scope project.'}`,
    ];
  }
  const lines = [
    `For the whole team: commit ${show(file)}. Its command runs ` +
      `\`stallguard\` from PATH, so each teammate needs stallguard installed ` +
      '(from a clone of it: npm install && npm install -g .); where it ' +
      'is missing, the hook steps aside and `stallguard doctor` says so.',
  ];
  if (!onPath('stallguard'))
    lines.push(
      "stallguard is not on this machine's PATH yet: install it " +
        'that way here too, or the hook steps aside here as well.',
    );
  return lines;
}
