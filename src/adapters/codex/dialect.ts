import type { CallFacts } from '../../types.ts';
import { callFields } from '../../core/call-fields.ts';
import { commandOf, type Dialect, mark, tableFacts, toolTable } from '../dialect.ts';
import { outputText } from '../../core/output-text.ts';
import { either, regex } from '../../core/regex.ts';

// Codex CLI's tools and the envelope around their results: a shell call's output reads
// `Exit code: 1\nWall time: 0.2 seconds\nOutput:\n...`, a unified-exec one adds a chunk id and a token
// count (`Chunk ID: 3f2a1b\n...\nProcess exited with code 1\n...\nOutput:\n...`). The envelope changes on
// every run, so the output is what follows it.

const TOOLS = toolTable({
  read: 'view_image list_mcp_resources list_mcp_resource_templates read_mcp_resource',
  poll: 'write_stdin wait_agent multi_agent_v1wait_agent',
  search: 'web_search',
  edit: 'apply_patch',
  spawn: 'spawn_agent',
  bookkeeping: 'update_plan',
});
/** Its shell tools, as rollouts name them, and as its hooks do (`Bash`, whatever the rollout says). */
const SHELL = new Set(['shell', 'shell_command', 'exec_command', 'local_shell', 'container.exec', 'Bash']);

const ENVELOPE = regex(
  '',
  /^(?:Chunk ID: \S+\n)?(?:Exit code: (-?\d+)\n)?(?:Wall time: [^\n]*\n)?/,
  /(?:Process exited with code (-?\d+)\n)?(?:Process running with session ID \S+\n)?/,
  /(?:Original token count: \d+\n)?(?:Output:\n?)?/,
);
const PATCH_TARGET = /\*\*\* (?:Update|Add|Delete) File: ([^\n]+)/;
const REJECTED_PATCH = either(
  'i',
  /apply_patch verification failed|Failed to find (?:expected lines|context)/,
  /invalid hunk at line|Failed to read file to update|invalid patch/,
);
const HOSTED_STATUS = /^(?:completed|in_progress|searching|)$/;
const REFUSED = /^(?:exec command rejected by user|patch rejected by user|rejected by user)/i;
/** A command the sandbox stopped: `failed in sandbox ... with execution error: ..., exit code: 1, ...`. */
const SANDBOX_FAILURE = /^failed in sandbox\b[^\n]*?\bexit code: (-?\d+)/;

/**
 * The JSON envelope older Codex versions wrote around a shell call's result,
 * `{"output":"...","metadata":{"exit_code":1,"duration_seconds":0.1}}`: its output and exit status.
 */
export function jsonEnvelope(text: string): { text: string; ok: boolean | null } | undefined {
  if (!text.startsWith('{"output"')) return undefined;
  try {
    const o = JSON.parse(text) as { output?: unknown; metadata?: { exit_code?: unknown } };
    const code = o.metadata?.exit_code;
    return { text: typeof o.output === 'string' ? o.output : text, ok: typeof code === 'number' ? code === 0 : null };
  } catch {
    return undefined; // plain text after all
  }
}

/** An apply_patch body, sent as the tool's own input or as a shell call `apply_patch <<'EOF' ...`. */
function patchOf(input: unknown, command: string | undefined): string | undefined {
  const o = callFields(input);
  for (const v of [o.input, o.patch, typeof input === 'string' ? input : undefined])
    if (typeof v === 'string' && v.includes('*** Begin Patch')) return v;
  return command !== undefined && /(?:^|[\s'"])apply_patch\b/.test(command) && command.includes('*** Begin Patch')
    ? command
    : undefined;
}

export const codexDialect: Dialect = (call, output, ok) => {
  const facts: CallFacts = tableFacts(TOOLS, SHELL, call);
  const patch =
    call.name === 'apply_patch' || facts.command !== undefined
      ? patchOf(call.input, facts.command ?? commandOf(call.input))
      : undefined;
  if (patch !== undefined) {
    delete facts.command;
    facts.cls = 'edit';
    facts.patch = patch;
    const target = PATCH_TARGET.exec(patch)?.[1]?.trim();
    if (target) facts.target = target;
  }
  const json = typeof output === 'string' ? jsonEnvelope(output) : undefined;
  if (json) {
    output = json.text;
    ok ??= json.ok;
  }
  const text = outputText(output);
  const envelope = typeof output === 'string' ? ENVELOPE.exec(text) : null;
  const code = envelope?.[1] ?? envelope?.[2];
  const sandbox = SANDBOX_FAILURE.exec(text.slice(0, 300))?.[1];
  const known = ok ?? (code !== undefined ? code === '0' : sandbox !== undefined ? sandbox === '0' : null);
  const body = envelope && envelope[0].length > 0 ? text.slice(envelope[0].length) : output;
  const bodyText = outputText(body);
  mark(facts, 'refused', REFUSED.test(bodyText.slice(0, 200)));
  // a patch applies whole or not at all: a failed one changed nothing
  mark(
    facts,
    'rejected',
    facts.cls === 'edit' && known === false && (patch !== undefined || REJECTED_PATCH.test(bodyText.slice(0, 400))),
  );
  // a hosted web search leaves its status in the rollout, or nothing; a web_search tool that answers is read
  const hidden = call.name === 'web_search' && HOSTED_STATUS.test(bodyText.trim());
  mark(facts, 'hidden', hidden);
  mark(facts, 'empty', bodyText.trim().length === 0 && facts.cls !== 'edit' && !hidden);
  return { ok: known, output: body, facts };
};
