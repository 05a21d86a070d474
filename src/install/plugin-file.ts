import { SettingsError } from './settings-json.ts';

// The agents that load plugins in-process (opencode, pi) pick up every module in a folder of theirs;
// stallguard keeps one file there, which loads the plugin bundled beside the CLI by its absolute path,
// as a hook command names the hook. The file is stallguard's alone: install writes it whole, uninstall
// deletes it, and the first line marks it, so that a file of the same name written by anyone else is left alone.

const FIRST_LINE = '// stallguard: catches the agent when it is stuck in a loop.';
const LOADS = /^export \{ [A-Za-z]+ \} from (".*");$/m;

export interface PluginFileSpec {
  /** The agent's name in `stallguard install --agent`. */
  agent: string;
  /** What the bundle exports that the agent loads: `default`, or a named plugin function. */
  binding: string;
}

function ours(text: string): boolean {
  return text.startsWith(FIRST_LINE);
}

export function pluginFileText(spec: PluginFileSpec, modulePath: string): string {
  return [
    FIRST_LINE,
    `// Written by \`stallguard install --agent ${spec.agent}\`; ` +
      `\`stallguard uninstall --agent ${spec.agent}\` removes this file.`,
    `export { ${spec.binding} } from ${JSON.stringify(modulePath)};`,
    '',
  ].join('\n');
}

export function addPluginFile(text: string, file: string, modulePath: string, spec: PluginFileSpec): string {
  if (text.trim() !== '' && !ours(text))
    throw new SettingsError(`${file} exists and was not written by stallguard; move it aside, then run install again`);
  return pluginFileText(spec, modulePath);
}

export function removePluginFile(text: string): string {
  return ours(text) ? '' : text;
}

/** The module the file loads, when it is stallguard's. */
export function installedPlugin(text: string): string | undefined {
  if (!ours(text)) return undefined;
  const m = LOADS.exec(text);
  return m ? (JSON.parse(m[1]!) as string) : undefined;
}
