// Where the agents put the parts of a call that stallguard reads: the shell tools, the command a call runs,
// the file it is about. One place, so that classification, short forms and self-protection agree.

/** The tools that run a shell command, across agents (Claude, Codex, Gemini, Cursor, Copilot). */
export const SHELL_TOOLS: ReadonlySet<string> = new Set([
  'Bash',
  'bash',
  'run_shell_command',
  'exec_command',
  'local_shell',
  'shell_command',
  'container.exec',
  'Shell',
  'shell',
  'PowerShell',
  'powershell',
]);

/** A call's arguments as an object (some agents send them as a JSON string); {} when they are not one. */
export function callFields(input: unknown): Record<string, unknown> {
  const parsed = parseMaybeJson(input);
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

/** The command a call runs: a string, or an argv list quoted back into one. */
export function callCommand(o: Record<string, unknown>): string | undefined {
  for (const raw of [o.command, o.cmd]) {
    if (typeof raw === 'string') return raw;
    if (Array.isArray(raw))
      return raw
        .filter((w): w is string => typeof w === 'string')
        .map(shellQuote)
        .join(' ');
  }
  return undefined;
}

function shellQuote(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** The names the agents give the file or folder a call is about. */
export const PATH_FIELDS: readonly string[] = [
  'file_path',
  'path',
  'notebook_path',
  'filePath',
  'absolute_path',
  'target_file',
  'targetFile',
  'file',
  'filename',
  'uri',
];

/** The names the agents give an edit's old and new text: Claude and Gemini, opencode, Copilot, pi, others. */
export const REPLACEMENT_FIELDS: readonly (readonly [string, string])[] = [
  ['old_string', 'new_string'],
  ['oldString', 'newString'],
  ['old_str', 'new_str'],
  ['oldText', 'newText'],
  ['old_text', 'new_text'],
];

/** The file or folder a call names. */
export function callPath(o: Record<string, unknown>): string | undefined {
  for (const k of PATH_FIELDS) if (typeof o[k] === 'string') return o[k] as string;
  return undefined;
}

/** Some agents send arguments as a JSON string (Copilot's toolArgs, Cursor's MCP input). */
export function parseMaybeJson(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const s = input.trim();
  if (!(s.startsWith('{') || s.startsWith('['))) return input;
  try {
    return JSON.parse(s);
  } catch {
    return input;
  }
}
