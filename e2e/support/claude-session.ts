import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode } from '../../src/types.ts';
import { type ClaudeCode, ensureClaudeCode } from './claude-code.ts';
import { conversationOf, type MessagesRequest, startFakeAnthropic } from './fake-anthropic.ts';
import { isSubagent, mapStrings, type ModelScript } from './model-script.ts';
import type { RecordedRequest } from './recording-server.ts';
import {
  hookErrors,
  type LedgerLine,
  makeScratch,
  readLedger,
  readRequests,
  runClient,
  type Scratch,
  scratchEnv,
  stallguard,
  withChecks,
} from './scratch.ts';

// One scripted Claude Code session, end to end: the fake Anthropic API plays the script, the real CLI
// runs headless (-p, stream-json) in the scratch project where `stallguard install` registered the hook,
// and everything that can be asserted on is collected: what reached the model, how the session ended,
// and what stallguard recorded. Flags and environment as measured in ../shared/e2e/REPORT.md.

export interface ClaudeScenario {
  /** A short name for the scratch folder. */
  name: string;
  script: ModelScript;
  mode: Mode;
  prompt?: string;
  /** Tools allowed without a prompt; needed when running as root, where permission bypass is refused. */
  allowedTools?: string[];
  timeoutMs?: number;
  /** `stallguard` arguments that register the hook (default: install). */
  installArgs?: string[];
}

/** A line of Claude Code's stream-json output. */
export type StreamEvent = {
  type: string;
  subtype?: string;
  session_id?: string;
  parent_tool_use_id?: string | null;
  message?: { content?: unknown };
  [k: string]: unknown;
};

export interface ResultEvent {
  type: 'result';
  subtype: string;
  session_id?: string;
  terminal_reason?: string;
  num_turns: number;
  result?: string;
  permission_denials: { tool_name: string; tool_use_id: string; tool_input: Record<string, unknown> }[];
}

export interface ClaudeRun {
  client: ClaudeCode;
  scratch: Scratch;
  sessionId: string;
  /** The script as played, with the project's path in place. */
  script: ModelScript;
  /** The bodies of every POST /v1/messages, in the order the server received them. */
  requests: MessagesRequest[];
  stream: StreamEvent[];
  result: ResultEvent;
  /** The project's settings file as `stallguard install` left it (.claude/settings.local.json), before the session. */
  installedSettings: string;
  /** The stallguard session file of this session. */
  ledger: LedgerLine[];
  hookErrors: string;
  ms: number;
}

/** Where `stallguard install` registers the hook in the project: Claude Code's personal settings file. */
const SETTINGS = ['.claude', 'settings.local.json'];

/** The placeholder for the scratch project's absolute path in scripts. */
export const PROJ = '/PROJ';
const ALLOWED = ['Bash', 'Read', 'Edit', 'Write', 'Agent', 'Task'];

let client: ClaudeCode | undefined;

/** The scratch environment of a headless Claude Code run against the fake API at `url`. */
export function claudeEnv(scratch: Scratch, url: string): NodeJS.ProcessEnv {
  return scratchEnv(scratch, {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'sk-e2e-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_BUG_COMMAND: '1',
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: '1',
  });
}

/** The arguments of a headless Claude Code run: one prompt, stream-json with hook events, the tools allowed without asking. */
export function claudeArgs(cli: ClaudeCode, prompt: string, allowedTools: string[] = ALLOWED): string[] {
  return [
    ...cli.prefix,
    '-p',
    prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--include-hook-events',
    '--allowedTools',
    allowedTools.join(','),
  ];
}

export async function runClaude(scenario: ClaudeScenario): Promise<ClaudeRun> {
  client ??= ensureClaudeCode();
  const scratch = makeScratch(scenario.name, scenario.mode);
  stallguard(scratch, scenario.installArgs ?? ['install']);
  const installedSettings = readFileSync(join(scratch.project, ...SETTINGS), 'utf8');
  const script = mapStrings(scenario.script, (s) => s.replaceAll(PROJ, scratch.project));
  const server = await startFakeAnthropic(script, scratch.requestsLog);
  const env = claudeEnv(scratch, server.url);
  const args = claudeArgs(client, scenario.prompt ?? 'fix the failing tests', scenario.allowedTools ?? ALLOWED);
  const run = await runClient(scratch, client, args, { env, server, timeoutMs: scenario.timeoutMs });
  const stream = run.events as StreamEvent[];
  const result = stream.findLast((e) => e.type === 'result') as ResultEvent | undefined;
  if (!result)
    throw new Error(
      `${client.label} exited ${run.code ?? run.signal} with no result event (scratch kept in ${scratch.root})\n${run.stderr.slice(-2000)}`,
    );
  const sessionId = String(
    stream.find((e) => e.type === 'system' && e.subtype === 'init')?.session_id ?? result.session_id ?? '',
  );
  const requests = readRequests<RecordedRequest>(scratch)
    .filter((r) => r.method === 'POST' && r.path.startsWith('/v1/messages') && !r.path.includes('count_tokens'))
    .map((r) => r.body as MessagesRequest);
  return {
    client,
    scratch,
    sessionId,
    script,
    requests,
    installedSettings,
    stream,
    result,
    ledger: readLedger(scratch).get(sessionId) ?? [],
    hookErrors: hookErrors(scratch),
    ms: run.ms,
  };
}

/** Runs a scenario and its checks; the scratch folder is kept, and named, when the checks fail. */
export const claudeScenario = withChecks(runClaude);

/** The requests of the main agent, or of the subagents, in order. */
export function requestsOf(run: ClaudeRun, who: 'main' | 'sub'): MessagesRequest[] {
  return run.requests.filter((r) => isSubagent(run.script, conversationOf(r)) === (who === 'sub'));
}

/** The tool calls the CLI made for the main agent, or for subagents (stream-json marks those with parent_tool_use_id). */
export function toolCalls(
  run: ClaudeRun,
  who: 'main' | 'sub',
): { id: string; name: string; input: Record<string, unknown> }[] {
  return run.stream
    .filter((e) => e.type === 'assistant' && !!e.parent_tool_use_id === (who === 'sub'))
    .flatMap((e) =>
      Array.isArray(e.message?.content)
        ? (e.message.content as { type: string; id: string; name: string; input: Record<string, unknown> }[])
        : [],
    )
    .filter((b) => b.type === 'tool_use')
    .map(({ id, name, input }) => ({ id, name, input }));
}

/** What the hook printed, per hook run that printed anything (from --include-hook-events). */
export function hookOutputs(run: ClaudeRun): { hook: string; output: Record<string, unknown> }[] {
  return run.stream
    .filter(
      (e) =>
        e.type === 'system' && e.subtype === 'hook_response' && typeof e.stdout === 'string' && e.stdout.trim() !== '',
    )
    .map((e) => ({ hook: String(e.hook_name), output: JSON.parse(String(e.stdout)) as Record<string, unknown> }));
}

/** The project's settings file now. */
export function readSettings(run: ClaudeRun): string {
  return readFileSync(join(run.scratch.project, ...SETTINGS), 'utf8');
}
