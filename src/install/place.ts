import type { InstallTarget, Scope } from './target.ts';

// Where an install goes. Files meant to be committed never get this machine's paths:
//   local    this project, this person (the default): the agent's personal settings file where it has
//            one (Claude Code's .claude/settings.local.json), else its project file, kept out of git in
//            .git/info/exclude; the command names this machine's node and hook bundle.
//   project  this project, the whole team: the project file, to be committed; the command runs
//            `stallguard` from each teammate's PATH.
//   user     every project of this person: the agent's user settings, with this machine's paths.

export type Where = 'local' | Scope;

export const WHERE: readonly Where[] = ['local', 'project', 'user'];

/** The scopes an agent can be installed at: local wherever it reads a project's hooks. */
export function placesOf(target: InstallTarget): Where[] {
  return WHERE.filter((w) => target.scopes.includes(w === 'local' ? 'project' : w));
}

export function fileAt(target: InstallTarget, where: Where, project: string, env: NodeJS.ProcessEnv): string {
  if (where === 'local') return target.localFile?.(project, env) ?? target.settingsFile('project', project, env);
  return target.settingsFile(where, project, env);
}

/** The hook command runs `stallguard` from PATH (a shared install) rather than this machine's files. */
export function isShared(where: Where): boolean {
  return where === 'project';
}

/** Every file of this project and user where the agent may hold stallguard's hooks, each once. */
export function installFiles(
  target: InstallTarget,
  project: string,
  env: NodeJS.ProcessEnv,
): { where: Where; file: string }[] {
  const seen = new Set<string>();
  return placesOf(target)
    .map((where) => ({ where, file: fileAt(target, where, project, env) }))
    .filter(({ file }) => !seen.has(file) && !!seen.add(file));
}
