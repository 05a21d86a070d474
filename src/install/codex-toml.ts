import { join } from 'node:path';
import { parse } from 'smol-toml';
import { CODEX, codexTarget } from './codex.ts';
import { codexHome } from '../core/agent-homes.ts';
import { ourGroupCommand } from './hook-groups.ts';
import { marked } from './ours.ts';
import { SettingsError } from './settings-json.ts';
import type { InstallTarget, Scope } from './target.ts';

// The other place Codex reads hooks from: inline [[hooks.<Event>]] tables in config.toml (project
// .codex/config.toml, user $CODEX_HOME/config.toml), for people who keep their hooks there rather than in
// hooks.json (Codex warns when one layer has both). A TOML editor that keeps comments would be a large
// dependency, so stallguard's tables go in one block at the end of the file, between marker comments, and
// uninstall cuts exactly that block. smol-toml checks the file before and after: a file that does not
// parse, or that our tables would make invalid (a hooks.<Event> defined as a plain array), is refused
// with its name and nothing is written.

const BEGIN =
  '# >>> stallguard: hooks added by `stallguard install --agent codex ' +
  '--config-toml`; `stallguard uninstall --agent codex` removes this block';
const END = '# <<< stallguard';

function parseToml(text: string, file: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (e) {
    const first = String((e as Error).message).split('\n')[0];
    throw new SettingsError(`${file} is not valid TOML (${first}); fix it or move it aside, then run install again`);
  }
}

function hooksTable(text: string, file: string): Record<string, unknown> | undefined {
  const hooks = parseToml(text, file).hooks;
  if (hooks === undefined) return undefined;
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks))
    throw new SettingsError(`${file}: "hooks" must be a table; fix it or move the file aside, then run install again`);
  return hooks as Record<string, unknown>;
}

/** Our tables: one matcher group per event with the one marked command. */
function block(command: string): string {
  const lines = [BEGIN];
  for (const { name, matcher } of CODEX.events) {
    lines.push(`[[hooks.${name}]]`);
    if (matcher !== undefined) lines.push(`matcher = ${JSON.stringify(matcher)}`);
    lines.push(`[[hooks.${name}.hooks]]`);
    for (const [k, v] of Object.entries(CODEX.handler(marked(command)))) lines.push(`${k} = ${JSON.stringify(v)}`);
    lines.push('');
  }
  lines[lines.length - 1] = END;
  return lines.join('\n') + '\n';
}

/**
 * The text with stallguard's block cut out. add() puts one newline between the person's text and the block
 * (a blank line when their text ended with one, the end of their last line when it did not), so taking
 * that newline back gives their text exactly.
 */
export function removeTomlBlock(text: string): string {
  const start = text.startsWith(BEGIN) ? 0 : text.indexOf(`\n${BEGIN}`) + 1;
  if (start === 0 && !text.startsWith(BEGIN)) return text;
  const endAt = text.indexOf(`\n${END}`, start);
  if (endAt === -1) return text;
  let stop = endAt + 1 + END.length;
  if (text[stop] === '\n') stop++;
  const before = text.slice(0, start);
  return (before === '' ? '' : before.slice(0, -1)) + text.slice(stop);
}

export function addTomlBlock(text: string, file: string, command: string): string {
  parseToml(text, file);
  const rest = removeTomlBlock(text);
  const out = rest === '' ? block(command) : `${rest}\n${block(command)}`;
  try {
    parse(out);
  } catch (e) {
    const first = String((e as Error).message).split('\n')[0];
    throw new SettingsError(
      `${file}: stallguard's [[hooks.<Event>]] tables cannot go into this ` +
        `file (${first}); hooks defined there in another form (an inline array) ` +
        'would clash. Use hooks.json instead (install without --config-toml).',
    );
  }
  return out;
}

export const codexTomlTarget: InstallTarget = {
  ...codexTarget,
  label: 'Codex CLI (config.toml)',
  settingsFile: (scope: Scope, project, env) =>
    scope === 'project' ? join(project, '.codex', 'config.toml') : join(codexHome(env), 'config.toml'),
  add: (text, file, command) => addTomlBlock(text, file, command),
  remove: (text) => removeTomlBlock(text),
  installed: (text, file) => ourGroupCommand(hooksTable(text, file), CODEX),
};
