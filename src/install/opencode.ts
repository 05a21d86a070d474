import { userHome } from '../core/user-home.ts';
import { join } from 'node:path';
import { addPluginFile, installedPlugin, type PluginFileSpec, removePluginFile } from './plugin-file.ts';
import type { InstallTarget, Scope } from './target.ts';

// opencode loads every .js and .ts file in .opencode/plugins/ (project) and ~/.config/opencode/plugins/
// (user, under XDG_CONFIG_HOME when it is set) at start-up, and calls each function the module exports.

const SPEC: PluginFileSpec = { agent: 'opencode', binding: 'StallguardPlugin' };

function configDir(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME?.trim() || join(userHome(env), '.config'), 'opencode');
}

export const opencodeTarget: InstallTarget = {
  agent: 'opencode',
  label: 'opencode',
  scopes: ['project', 'user'],
  plugin: 'opencode-plugin.js',
  settingsFile: (scope: Scope, project, env) =>
    join(scope === 'project' ? join(project, '.opencode') : configDir(env), 'plugins', 'stallguard.js'),
  rulesFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, 'AGENTS.md') : join(configDir(env), 'AGENTS.md'),
  events: [
    'chat.message',
    'tool.execute.before',
    'tool.execute.after',
    'event',
    'experimental.chat.messages.transform',
  ],
  add: (text, file, modulePath) => addPluginFile(text, file, modulePath, SPEC),
  remove: (text) => removePluginFile(text),
  installed: (text) => installedPlugin(text),
};
