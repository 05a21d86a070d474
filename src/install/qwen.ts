import { join } from 'node:path';
import { addGroups, type GroupSpec, installedGroups, removeGroups } from './hook-groups.ts';
import { CLAUDE_WITH_POST_TOOL_USE } from './claude.ts';
import type { InstallTarget, Scope } from './target.ts';
import { qwenHome } from '../core/agent-homes.ts';

// .qwen/settings.json (project; loaded in trusted folders, and folder trust is off by default) or
// $QWEN_HOME/settings.json (user, default ~/.qwen). Claude-shaped groups; timeouts are in seconds since
// 0.2x (values of 1000 and more are still read as milliseconds). UserPromptSubmit fires before every model request,
// which is where a stop ends the turn; a subagent's batches end at its PostToolBatch (src/adapters/qwen/parse.ts).

/**
 * Qwen Code copies Claude Code's hook events, PostToolUse among them, which stays: the main agent's batches
 * end at the UserPromptSubmit before each model request (src/adapters/qwen/parse.ts), no list of results.
 */
export const QWEN: GroupSpec = CLAUDE_WITH_POST_TOOL_USE;

export const qwenTarget: InstallTarget = {
  agent: 'qwen',
  label: 'Qwen Code',
  scopes: ['project', 'user'],
  settingsFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, '.qwen', 'settings.json') : join(qwenHome(env), 'settings.json'),
  rulesFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, 'QWEN.md') : join(qwenHome(env), 'QWEN.md'),
  events: QWEN.events.map((e) => e.name),
  shell: true,
  daemon: 'first-stage',
  add: (text, file, command) => addGroups(text, file, command, QWEN),
  remove: (text, file) => removeGroups(text, file),
  installed: (text, file) => installedGroups(text, file, QWEN),
};
