import { homedir } from 'node:os';
import { join } from 'node:path';
import { addHooks, CLAUDE_EVENTS, installedCommand, removeHooks } from './claude-settings.ts';
import type { InstallTarget, Scope } from './target.ts';

export const claudeTarget: InstallTarget = {
  agent: 'claude',
  label: 'Claude Code',
  settingsFile(scope: Scope, project: string, env: NodeJS.ProcessEnv): string {
    if (scope === 'project') return join(project, '.claude', 'settings.json');
    return join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude'), 'settings.json');
  },
  rulesFile(scope: Scope, project: string, env: NodeJS.ProcessEnv): string {
    if (scope === 'project') return join(project, 'CLAUDE.md');
    return join(env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude'), 'CLAUDE.md');
  },
  events: CLAUDE_EVENTS.map(([e]) => e),
  shell: true,
  daemon: true,
  add: (text, file, command, httpUrl) => addHooks(text, file, command, httpUrl),
  remove: (text, file) => removeHooks(text, file),
  installed: (text, file) => installedCommand(text, file),
};
