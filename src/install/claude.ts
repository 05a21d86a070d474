import { userHome } from '../core/user-home.ts';
import { join } from 'node:path';
import { addGroups, type GroupSpec, installedGroups, removeGroups } from './hook-groups.ts';
import type { InstallTarget, Scope } from './target.ts';
import { batchListsResults } from './claude-version.ts';

// .claude/settings.local.json (this project, personal and git-ignored), .claude/settings.json (this
// project, committed) or ~/.claude/settings.json (user). No PostToolUse: PostToolBatch lists every call of
// the batch with its result, so a call that succeeds costs two hook events, not three; PostToolUseFailure
// gives a failure exactly (the batch's list gives only the text the model reads), and PostToolBatch is
// where a stop decided on a failure is delivered. With the daemon, the events after a call go to its http
// hook alone (hook-groups.ts).

export const CLAUDE: GroupSpec = {
  events: [
    { name: 'UserPromptSubmit' },
    { name: 'PreToolUse', matcher: '*' },
    { name: 'PostToolUseFailure', matcher: '*', httpAlone: true },
    { name: 'PostToolBatch', httpAlone: true },
    { name: 'Stop' },
    { name: 'SubagentStop' },
  ],
  handler: (command) => ({ type: 'command', command, timeout: 10 }),
};

/** The layout for a Claude Code whose batch ends list no results (claude-version.ts): PostToolUse as well. */
export const CLAUDE_WITH_POST_TOOL_USE: GroupSpec = {
  ...CLAUDE,
  events: [...CLAUDE.events, { name: 'PostToolUse', matcher: '*', httpAlone: true }],
};

function configDir(env: NodeJS.ProcessEnv): string {
  return env.CLAUDE_CONFIG_DIR || join(userHome(env), '.claude');
}

export const claudeTarget: InstallTarget = {
  agent: 'claude',
  label: 'Claude Code',
  scopes: ['project', 'user'],
  settingsFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, '.claude', 'settings.json') : join(configDir(env), 'settings.json'),
  localFile: (project) => join(project, '.claude', 'settings.local.json'),
  rulesFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, 'CLAUDE.md') : join(configDir(env), 'CLAUDE.md'),
  events: CLAUDE.events.map((e) => e.name),
  shell: true,
  daemon: 'http',
  add: (text, file, command, httpUrl) =>
    addGroups(text, file, command, batchListsResults(process.env) ? CLAUDE : CLAUDE_WITH_POST_TOOL_USE, httpUrl),
  remove: (text, file) => removeGroups(text, file),
  installed: (text, file) => installedGroups(text, file, CLAUDE),
};
