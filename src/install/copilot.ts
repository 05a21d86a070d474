import { join } from 'node:path';
import { addEntries, installedEntries, type ListSpec, removeEntries } from './hook-lists.ts';
import type { InstallTarget } from './target.ts';

// Copilot CLI loads every .github/hooks/*.json of the repository; stallguard keeps its own file there.
// The events are registered under their camelCase names: that dialect names the tool in toolName/toolArgs,
// which tells its payloads apart from Claude Code's without --agent, and it is the only one the reference
// documents for every event stallguard needs.

export const COPILOT: ListSpec = {
  events: ['userPromptSubmitted', 'preToolUse', 'postToolUse', 'postToolUseFailure', 'agentStop', 'subagentStop'],
  commandField: 'bash',
  entry: (command) => ({ type: 'command', bash: command, timeoutSec: 10 }),
};

export const copilotTarget: InstallTarget = {
  agent: 'copilot',
  label: 'Copilot CLI',
  scopes: ['project'],
  settingsFile: (_scope, project) => join(project, '.github', 'hooks', 'stallguard.json'),
  rulesFile: (_scope, project) => join(project, 'AGENTS.md'),
  events: COPILOT.events,
  add: (text, file, command) => addEntries(text, file, command, COPILOT),
  remove: (text, file) => removeEntries(text, file, COPILOT),
  installed: (text, file) => installedEntries(text, file, COPILOT),
};
