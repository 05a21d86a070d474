import type { AgentName } from '../types.ts';
import type { DaemonWay } from './hook-command.ts';

export type Scope = 'project' | 'user';

/** How stallguard is registered with one agent: which file, and how to add or remove its hooks there. */
export interface InstallTarget {
  agent: AgentName;
  label: string;
  /** The scopes the agent reads hooks from. */
  scopes: readonly Scope[];
  settingsFile(scope: Scope, project: string, env: NodeJS.ProcessEnv): string;
  /** The agent's personal, git-ignored settings file for a project, where it has one (Claude Code's
   *  .claude/settings.local.json). Without one, a personal install uses the project file, kept out of git. */
  localFile?(project: string, env: NodeJS.ProcessEnv): string;
  /** The agent's instruction file for the rule, where it has one at that scope. */
  rulesFile(scope: Scope, project: string, env: NodeJS.ProcessEnv): string | undefined;
  /** The events (hooks, for a plugin) stallguard is registered for. */
  events: readonly string[];
  /** The in-process plugin the agent loads instead of a hook command: its file in dist/. Install then
   *  hands add() the plugin's absolute path where the others get the hook command. */
  plugin?: string;
  /** The agent runs a hook command through `sh -c` on POSIX systems. */
  shell?: boolean;
  /** How the agent's hooks reach the daemon, `stallguard serve`, which install sets up by default for a
   *  personal install on a POSIX system: Claude Code's http hooks, or a command's bash first stage. */
  daemon?: DaemonWay;
  /** The settings text with stallguard's hooks for `command` (any earlier ones replaced); with `httpUrl`,
   *  also the http hook of `stallguard serve`, where the agent has one (see daemon). */
  add(text: string, file: string, command: string, httpUrl?: string): string;
  /** The settings text with every stallguard hook removed (and what that left empty; whether the file
   *  goes is uninstall's call, from its receipt of what install created). */
  remove(text: string, file: string): string;
  /** The command stallguard is registered with, if it is registered for every event it needs. */
  installed(text: string, file: string): string | undefined;
  /** A step the person has to take by hand, printed after install. */
  manualStep?: string;
}
