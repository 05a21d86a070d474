import { join } from 'node:path';
import { addPluginFile, installedPlugin, type PluginFileSpec, removePluginFile } from './plugin-file.ts';
import type { InstallTarget, Scope } from './target.ts';
import { piAgentDir } from '../core/agent-homes.ts';

// pi loads every .ts and .js file in .pi/extensions/ (project) and ~/.pi/agent/extensions/ (user; the agent
// folder moves with PI_CODING_AGENT_DIR) at start-up, and runs the function each one exports by default.

const SPEC: PluginFileSpec = { agent: 'pi', binding: 'default' };

export const piTarget: InstallTarget = {
  agent: 'pi',
  label: 'pi',
  scopes: ['project', 'user'],
  plugin: 'pi-extension.js',
  settingsFile: (scope: Scope, project, env) =>
    join(scope === 'project' ? join(project, '.pi') : piAgentDir(env), 'extensions', 'stallguard.js'),
  rulesFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, 'AGENTS.md') : join(piAgentDir(env), 'AGENTS.md'),
  events: ['before_agent_start', 'tool_call', 'tool_result', 'agent_end'],
  add: (text, file, modulePath) => addPluginFile(text, file, modulePath, SPEC),
  remove: (text) => removePluginFile(text),
  installed: (text) => installedPlugin(text),
};
