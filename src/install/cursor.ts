import { userHome } from '../core/user-home.ts';
import { join } from 'node:path';
import { addEntries, installedEntries, type ListSpec, removeEntries } from './hook-lists.ts';
import type { InstallTarget, Scope } from './target.ts';

// .cursor/hooks.json (project; trusted workspaces only) or ~/.cursor/hooks.json (user), version 1.
// subagentStart is where Cursor lets a hook refuse a subagent.

export const CURSOR: ListSpec = {
  events: [
    'beforeSubmitPrompt',
    'preToolUse',
    'postToolUse',
    'postToolUseFailure',
    'subagentStart',
    'stop',
    'subagentStop',
  ],
  commandField: 'command',
  entry: (command) => ({ command, timeout: 10 }),
};

export const cursorTarget: InstallTarget = {
  agent: 'cursor',
  label: 'Cursor',
  scopes: ['project', 'user'],
  settingsFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, '.cursor', 'hooks.json') : join(userHome(env), '.cursor', 'hooks.json'),
  // Cursor reads AGENTS.md in a project; its user rules live in its settings, not in a file
  rulesFile: (scope: Scope, project) => (scope === 'project' ? join(project, 'AGENTS.md') : undefined),
  events: CURSOR.events,
  add: (text, file, command) => addEntries(text, file, command, CURSOR),
  remove: (text, file) => removeEntries(text, file, CURSOR),
  installed: (text, file) => installedEntries(text, file, CURSOR),
};
