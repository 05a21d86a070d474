import type { GuardHit, ToolCall } from '../types.ts';
import { callCommand, callFields, SHELL_TOOLS } from '../core/call-fields.ts';
import { switchHit } from './code.ts';
import { type GuardContext, nowOf } from './context.ts';
import { applyChange, changesOf, introducedText } from './edits.ts';
import { holdsStallguard, offsInText, tamperOf } from './entries.ts';
import { forms, placeOf, resolvePath } from './paths.ts';
import { type Found, treeFound } from './reach.ts';
import { shellHit } from './shell.ts';
import { wordIn } from '../core/word-set.ts';

// Self-protection: a guard the guarded agent can switch off is no guard. In enforce mode a call is denied
// when it would change what keeps stallguard running: its own configuration, state and installed files,
// its entries in an agent's hook settings, or a switch that turns it or every hook off; whichever agent's
// file or shell tool makes it. Everything else in those settings files stays the person's to change
// through their agent, and reading, copying or searching them stays allowed.

export type { GuardContext } from './context.ts';

const EDIT_TOOLS = new Set([
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit', // Claude Code
  'apply_patch', // Codex
  'write_file',
  'replace', // Gemini CLI
  'Delete',
  'edit_file',
  'search_replace',
  'delete_file', // Cursor
  'create',
  'edit',
  'str_replace_editor',
  'str_replace_based_edit_tool', // Copilot CLI, SWE-agent style tools
]);
/**
 * MCP and custom tools are recognised by the words of their name: `mcp__filesystem__write_file`, `mcp_fs_move_file`.
 */
const EDIT_WORD = wordIn(
  'write edit create delete remove move rename replace patch save append insert copy upload unlink',
);
const SHELL_WORD = wordIn('bash shell sh exec execute run_command execute_command terminal powershell cmd');

/** What one file tool's change does to one path, given what the file holds now. */
function changeHit(abs: string, change: ReturnType<typeof changesOf>[number], ctx: GuardContext): Found | undefined {
  for (const p of forms(abs, ctx)) {
    const place = placeOf(p, ctx);
    if (place?.kind === 'own') return { kind: 'own', path: p };
    if (place?.kind === 'startup') {
      if (switchHit(introducedText(change))) return { kind: 'switch', path: p };
      continue;
    }
    if (change.op === 'delete') {
      // a folder removed or moved by a file tool takes what it holds along
      const hit = treeFound(p, ctx);
      if (hit) return hit;
    }
    if (place?.kind !== 'settings') continue;
    const now = nowOf(p, ctx);
    if ('unreadable' in now) return { kind: 'entry', path: p };
    const before = 'text' in now ? now.text : undefined;
    // without the file's text now (a replay), a whole new text is still known; an edit's result is not
    const after = 'unknown' in now && change.op !== 'write' ? { unknown: true as const } : applyChange(before, change);
    if ('unknown' in after) {
      // the new text cannot be worked out: what the file holds now, and what the call brings in, decide
      if (before !== undefined && holdsStallguard(before, place.format)) return { kind: 'entry', path: p };
      const introduced = introducedText(change);
      const offBefore = offsInText(change.op === 'replace' ? change.edits.map((e) => e.old).join('\n') : '');
      if ([...offsInText(introduced)].some((o) => !offBefore.has(o))) return { kind: 'switch', path: p };
      continue;
    }
    const tamper = tamperOf(before, 'text' in after ? after.text : undefined, place.format);
    if (tamper) return { kind: tamper, path: p };
  }
  return undefined;
}

function editHit(name: string, o: Record<string, unknown>, ctx: GuardContext): Found | undefined {
  const windows = /powershell/i.test(name);
  for (const change of changesOf(name, o)) {
    const hit = changeHit(resolvePath(change.path, ctx, ctx.cwd, windows), change, ctx);
    if (hit) return hit;
  }
  return undefined;
}

/** The command a call runs; PowerShell tools may send it as `script`. */
function shellCommand(o: Record<string, unknown>): string | undefined {
  return callCommand(o) ?? (typeof o.script === 'string' ? o.script : undefined);
}

/** One call's view of the file system: each file read and each link followed once, however often the checks ask. */
function memoized(ctx: GuardContext): GuardContext {
  const memo = <T>(f: ((abs: string) => T) | undefined) => {
    if (!f) return undefined;
    const seen = new Map<string, T>();
    return (abs: string): T => {
      if (!seen.has(abs)) seen.set(abs, f(abs));
      return seen.get(abs) as T;
    };
  };
  return { ...ctx, readText: memo(ctx.readText), realpath: memo(ctx.realpath) };
}

const AGENT_OF_FOLDER: [string, string][] = [
  ['.claude', 'claude'],
  ['claude-code', 'claude'],
  ['ClaudeCode', 'claude'],
  ['.codex', 'codex'],
  ['.gemini', 'gemini'],
  ['.cursor', 'cursor'],
  ['.github', 'copilot'],
  ['.copilot', 'copilot'],
  ['.qwen', 'qwen'],
];

/** The command that takes stallguard out of a settings file, for the person to run: install's own uninstall. */
function uninstallCommand(path: string, ctx: GuardContext): string | undefined {
  const segs = path.split('/');
  if (segs.includes('plugins') || segs.includes('extensions')) return undefined;
  const agent =
    AGENT_OF_FOLDER.find(([folder]) => segs.includes(folder))?.[1] ??
    ((ctx.configDirs ?? []).some((d) => path.startsWith(d + '/'))
      ? /codex/i.test(path)
        ? 'codex'
        : 'claude'
      : undefined);
  if (!agent || segs.includes('etc') || segs.includes('Library')) return undefined;
  const user =
    !!ctx.home &&
    (path.startsWith(`${ctx.home}/.`) || (ctx.configDirs ?? []).some((d) => path.startsWith(d + '/'))) &&
    !(ctx.cwd && path.startsWith(ctx.cwd + '/'));
  return `stallguard uninstall --agent ${agent}${user ? ' --scope user' : ''}`;
}

/** Whether a call would change stallguard's own files or entries, or switch it off. */
export function guardCall(call: ToolCall, context: GuardContext): GuardHit | undefined {
  const ctx = memoized(context);
  const o = callFields(call.input);
  const command = shellCommand(o);
  let hit: Found | undefined;
  if (
    command !== undefined &&
    (SHELL_TOOLS.has(call.name) || (!EDIT_TOOLS.has(call.name) && SHELL_WORD.test(call.name)))
  )
    hit = shellHit(command, ctx, /powershell|pwsh/i.test(call.name));
  else if (EDIT_TOOLS.has(call.name) || EDIT_WORD.test(call.name)) hit = editHit(call.name, o, ctx);
  if (!hit) return undefined;
  const run = hit.kind === 'entry' ? uninstallCommand(hit.path, ctx) : hit.command;
  return { code: 'SELF_PROTECT', path: hit.path, kind: hit.kind, ...(run ? { command: run } : {}) };
}
