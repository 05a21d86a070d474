import { join } from 'node:path';
import { addGroups, type GroupSpec, installedGroups, removeGroups } from './hook-groups.ts';
import type { InstallTarget, Scope } from './target.ts';
import { codexHome } from '../core/agent-homes.ts';

// .codex/hooks.json (project; loaded once the project's .codex layer is trusted) or $CODEX_HOME/hooks.json
// (user). Claude-shaped, but Codex matchers are regexes, so the tool events get no matcher (= every tool).
// Codex has no PostToolUseFailure: PostToolUse fires after failing commands too.

export const CODEX: GroupSpec = {
  events: [
    { name: 'UserPromptSubmit' },
    { name: 'PreToolUse' },
    { name: 'PostToolUse' },
    { name: 'Stop' },
    { name: 'SubagentStop' },
  ],
  handler: (command) => ({ type: 'command', command, timeout: 10 }),
};

export const codexTarget: InstallTarget = {
  agent: 'codex',
  label: 'Codex CLI',
  scopes: ['project', 'user'],
  settingsFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, '.codex', 'hooks.json') : join(codexHome(env), 'hooks.json'),
  rulesFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, 'AGENTS.md') : join(codexHome(env), 'AGENTS.md'),
  events: CODEX.events.map((e) => e.name),
  // measured: Codex runs a hook command with bash -c
  shell: true,
  daemon: 'first-stage',
  add: (text, file, command) => addGroups(text, file, command, CODEX),
  remove: (text, file) => removeGroups(text, file),
  installed: (text, file) => installedGroups(text, file, CODEX),
  manualStep:
    'Codex runs a new or changed hook only once you trust it: ' +
    'start codex, open /hooks and trust the stallguard hooks ' +
    '(a project .codex folder must be trusted too). Until then Codex skips them without a word.',
};
