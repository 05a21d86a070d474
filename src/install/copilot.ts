import { join } from 'node:path';
import { addEntries, installedEntries, type ListSpec, removeEntries } from './hook-lists.ts';
import type { InstallTarget, Scope } from './target.ts';
import { copilotHome } from '../core/agent-homes.ts';

// Copilot CLI loads every .github/hooks/*.json of the repository (in a trusted folder) and every
// $COPILOT_HOME/hooks/*.json (default ~/.copilot/hooks); stallguard keeps its own file there. The events
// are registered under their camelCase names: that dialect names the tool in toolName/toolArgs, which
// tells its payloads apart from Claude Code's without --agent. permissionRequest is where a stopped agent
// is ended (src/adapters/copilot/render.ts).

export const COPILOT: ListSpec = {
  events: [
    'userPromptSubmitted',
    'preToolUse',
    'permissionRequest',
    'postToolUse',
    'postToolUseFailure',
    'agentStop',
    'subagentStop',
  ],
  commandField: 'bash',
  entry: (command) => ({ type: 'command', bash: command, timeoutSec: 10 }),
};

export const copilotTarget: InstallTarget = {
  agent: 'copilot',
  label: 'Copilot CLI',
  scopes: ['project', 'user'],
  settingsFile: (scope: Scope, project, env) =>
    scope === 'project'
      ? join(project, '.github', 'hooks', 'stallguard.json')
      : join(copilotHome(env), 'hooks', 'stallguard.json'),
  // Copilot reads AGENTS.md in a repository, and $COPILOT_HOME/copilot-instructions.md for the user
  rulesFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, 'AGENTS.md') : join(copilotHome(env), 'copilot-instructions.md'),
  events: COPILOT.events,
  shell: true,
  daemon: 'first-stage',
  add: (text, file, command) => addEntries(text, file, command, COPILOT),
  remove: (text, file) => removeEntries(text, file, COPILOT),
  installed: (text, file) => installedEntries(text, file, COPILOT),
  manualStep:
    "Copilot CLI loads a repository's .github/hooks only in a folder " +
    'you trusted (copilot -p needs --trust-folder once, or an earlier ' +
    'interactive trust); user hooks in ~/.copilot/hooks load everywhere.',
};
