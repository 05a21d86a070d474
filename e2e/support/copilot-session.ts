import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode } from '../../src/types.ts';
import { type ChatRequest, chatToolResults, startFakeChatCompletions } from './fake-chat-completions.ts';
import { mapStrings, type ModelScript } from './model-script.ts';
import { COPILOT_CLI, ensureNpmCli, type NpmCli } from './npm-cli.ts';
import type { RecordedRequest } from './recording-server.ts';
import { hookErrors, type LedgerLine, makeScratch, onlySession, readRequests, runClient, type Scratch, scratchEnv, stallguard, withChecks } from './scratch.ts';

// One scripted GitHub Copilot CLI session, end to end: the fake Chat Completions API plays the script as
// Copilot's own model provider (BYOK: COPILOT_PROVIDER_BASE_URL, and COPILOT_OFFLINE so that nothing else
// is reached: no GitHub sign-in, telemetry or update check); `stallguard install --agent copilot` registers
// the hook, in the scratch ~/.copilot/hooks or the project's .github/hooks (which Copilot loads in -p mode
// only in a trusted folder: --trust-folder); the real CLI runs headless (-p, JSON lines, all tools allowed).
// The model is named claude-sonnet-4.5 so that Copilot offers its documented tools (bash, view, create, edit,
// grep, glob, task); GPT names get apply_patch instead of create/edit.

export interface CopilotScenario {
  name: string;
  script: ModelScript;
  mode: Mode;
  scope: 'project' | 'user';
  prompt?: string;
  timeoutMs?: number;
}

export interface CopilotRun {
  client: NpmCli;
  scratch: Scratch;
  /** The bodies of every POST .../chat/completions, in order. */
  requests: ChatRequest[];
  /** --output-format json events. */
  events: Record<string, unknown>[];
  code: number | null;
  /** The hook file as `stallguard install` left it. */
  installedHooks: string;
  ledger: LedgerLine[];
  hookErrors: string;
  ms: number;
}

let client: NpmCli | undefined;

export function ensureCopilot(): NpmCli {
  client ??= ensureNpmCli(COPILOT_CLI);
  return client;
}

export async function runCopilot(scenario: CopilotScenario): Promise<CopilotRun> {
  const cli = ensureCopilot();
  const scratch = makeScratch(scenario.name, scenario.mode);
  const install = ['install', '--agent', 'copilot', ...(scenario.scope === 'user' ? ['--scope', 'user'] : [])];
  stallguard(scratch, install);
  const hooksFile = scenario.scope === 'user' ? join(scratch.home, '.copilot', 'hooks', 'stallguard.json') : join(scratch.project, '.github', 'hooks', 'stallguard.json');
  const installedHooks = readFileSync(hooksFile, 'utf8');
  const server = await startFakeChatCompletions(mapStrings(scenario.script, (s) => s.replaceAll('/PROJ', scratch.project)), scratch.requestsLog);
  const env = scratchEnv(scratch, {
    ...cli.env,
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${server.url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'sk-e2e-test',
    COPILOT_MODEL: 'claude-sonnet-4.5',
  });
  const args = [...cli.prefix, '-p', scenario.prompt ?? 'fix the failing tests', '--allow-all-tools', '--output-format', 'json', '--no-auto-update', ...(scenario.scope === 'project' ? ['--trust-folder'] : [])];
  const run = await runClient(scratch, cli, args, { env, server, timeoutMs: scenario.timeoutMs });
  const requests = readRequests<RecordedRequest>(scratch)
    .filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'))
    .map((r) => r.body as ChatRequest);
  return { client: cli, scratch, requests, events: run.events, code: run.code, installedHooks, ledger: onlySession(scratch), hookErrors: hookErrors(scratch), ms: run.ms };
}

/** Runs a scenario and its checks; the scratch folder is kept, and named, when the checks fail. */
export const copilotScenario = withChecks(runCopilot);

/** What the model read back for each of its tool calls, in the longest conversation (the last request). */
export function copilotToolResults(run: CopilotRun): string[] {
  return chatToolResults(run.requests.at(-1));
}

/** Copilot's own account of each call: tool.execution_complete events of the JSON stream. */
export function copilotExecutions(run: CopilotRun): { toolName?: string; success?: boolean; error?: { message?: string } }[] {
  const names = new Map(run.events.filter((e) => e.type === 'tool.execution_start').map((e) => [(e.data as Record<string, string>).toolCallId, (e.data as Record<string, string>).toolName]));
  return run.events
    .filter((e) => e.type === 'tool.execution_complete')
    .map((e) => e.data as { toolCallId?: string; success?: boolean; error?: { message?: string } })
    .map((d) => ({ ...d, toolName: names.get(d.toolCallId) }));
}
