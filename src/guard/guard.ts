import type { GuardHit, ToolCall } from '../types.ts';
import { callCommand, parseMaybeJson, SHELL_TOOLS } from '../core/call-fields.ts';
import { type GuardContext, isProtectedFile, resolvePath } from './paths.ts';
import { shellHit, startupFileHit } from './shell.ts';

// Self-protection: a guard the guarded agent can switch off is no guard. In enforce mode a call that would
// change stallguard's configuration or state, or any agent's hook settings, is denied, whichever agent's
// file or shell tool makes it. Reading those files stays allowed, and so do ordinary edits next to them.

export type { GuardContext } from './paths.ts';

const EDIT_TOOLS = new Set([
  'Edit', 'Write', 'MultiEdit', 'NotebookEdit', // Claude Code
  'apply_patch', // Codex
  'write_file', 'replace', // Gemini CLI
  'Delete', 'edit_file', 'search_replace', 'delete_file', // Cursor
  'create', 'edit', 'str_replace_editor', 'str_replace_based_edit_tool', // Copilot CLI, SWE-agent style tools
]);
/** MCP and custom tools are recognised by the words of their name: `mcp__filesystem__write_file`, `mcp_fs_move_file`. */
const EDIT_WORD = /(?:^|[_\W])(?:write|edit|create|delete|remove|move|rename|replace|patch|save|append|insert|copy|upload|unlink)(?:[_\W]|$)/i;
const SHELL_WORD = /(?:^|[_\W])(?:bash|shell|sh|exec|execute|run_command|execute_command|terminal|powershell|cmd)(?:[_\W]|$)/i;

const PATH_FIELDS = ['file_path', 'path', 'notebook_path', 'filePath', 'absolute_path', 'target_file', 'targetFile', 'file', 'filename', 'destination', 'dest', 'target', 'source', 'new_path', 'old_path', 'newPath', 'oldPath', 'uri'];
const CONTENT_FIELDS = ['content', 'new_string', 'new_source', 'newText', 'new_str', 'file_text', 'text', 'patch', 'input', 'command'];

function strings(o: Record<string, unknown>, fields: string[]): string[] {
  const out: string[] = [];
  for (const f of fields) {
    const v = o[f];
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) if (typeof x === 'string') out.push(x);
  }
  return out;
}

/** Every file an edit tool's call names: its path fields, MultiEdit's edits, the files of a patch. */
function editedPaths(o: Record<string, unknown>): string[] {
  const paths = strings(o, [...PATH_FIELDS, 'paths', 'files']).map((p) => p.replace(/^file:\/\//, ''));
  for (const text of strings(o, ['patch', 'input', 'command'])) {
    for (const m of text.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$|^(?:\+\+\+|---) (?:[ab]\/)?([^\t\n]+)/gm)) {
      const p = (m[1] ?? m[2] ?? m[3])!.trim();
      if (p !== '/dev/null') paths.push(p);
    }
  }
  return paths;
}

/** All the text an edit would write, for the check of shell startup files. */
function editedText(o: Record<string, unknown>): string {
  const edits = Array.isArray(o.edits) ? (o.edits as unknown[]).filter((e): e is Record<string, unknown> => !!e && typeof e === 'object') : [];
  return [...strings(o, CONTENT_FIELDS), ...edits.flatMap((e) => strings(e, CONTENT_FIELDS))].join('\n');
}

function editHit(name: string, o: Record<string, unknown>, ctx: GuardContext): string | undefined {
  const windows = /powershell/i.test(name);
  let text: string | undefined;
  for (const p of editedPaths(o)) {
    const abs = resolvePath(p, ctx, ctx.cwd, windows);
    if (isProtectedFile(abs, ctx)) return abs;
    if (startupFileHit(abs, (text ??= editedText(o)))) return abs;
  }
  return undefined;
}

/** The command a call runs; PowerShell tools may send it as `script`. */
function shellCommand(o: Record<string, unknown>): string | undefined {
  return callCommand(o) ?? (typeof o.script === 'string' ? o.script : undefined);
}

/** Whether a call would change stallguard's own files or an agent's hook settings. */
export function guardCall(call: ToolCall, ctx: GuardContext): GuardHit | undefined {
  const input = parseMaybeJson(call.input);
  const o = (input && typeof input === 'object' && !Array.isArray(input) ? input : {}) as Record<string, unknown>;
  const command = shellCommand(o);
  let hit: string | undefined;
  if (command !== undefined && (SHELL_TOOLS.has(call.name) || (!EDIT_TOOLS.has(call.name) && SHELL_WORD.test(call.name)))) hit = shellHit(command, ctx, /powershell|pwsh/i.test(call.name));
  else if (EDIT_TOOLS.has(call.name) || EDIT_WORD.test(call.name)) hit = editHit(call.name, o, ctx);
  return hit ? { code: 'SELF_PROTECT', path: hit } : undefined;
}
