import { userHome } from '../core/user-home.ts';
import { join } from 'node:path';
import { addGroups, type GroupSpec, installedGroups, removeGroups } from './hook-groups.ts';
import type { InstallTarget, Scope } from './target.ts';

// .gemini/settings.json (project) or ~/.gemini/settings.json (user), beside all of Gemini's other settings.
// Timeouts are in milliseconds there; the name shows in Gemini's hook listings.

export const GEMINI: GroupSpec = {
  events: [
    { name: 'BeforeAgent' },
    { name: 'BeforeTool', matcher: '*' },
    { name: 'AfterTool', matcher: '*' },
    { name: 'AfterAgent' },
  ],
  handler: (command) => ({ type: 'command', name: 'stallguard', command, timeout: 10_000 }),
};

function geminiDir(env: NodeJS.ProcessEnv): string {
  return join(userHome(env), '.gemini');
}

export const geminiTarget: InstallTarget = {
  agent: 'gemini',
  label: 'Gemini CLI',
  scopes: ['project', 'user'],
  settingsFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, '.gemini', 'settings.json') : join(geminiDir(env), 'settings.json'),
  rulesFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, 'GEMINI.md') : join(geminiDir(env), 'GEMINI.md'),
  events: GEMINI.events.map((e) => e.name),
  // measured: Gemini CLI runs a hook command with bash -c
  shell: true,
  daemon: 'first-stage',
  add: (text, file, command) => addGroups(text, file, command, GEMINI),
  remove: (text, file) => removeGroups(text, file),
  installed: (text, file) => installedGroups(text, file, GEMINI),
};
