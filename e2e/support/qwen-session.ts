import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode } from '../../src/types.ts';
import { type ChatRequest, chatToolResults, startFakeChatCompletions } from './fake-chat-completions.ts';
import { mapStrings, type ModelScript } from './model-script.ts';
import { ensureNpmCli, type NpmCli, QWEN_CODE } from './npm-cli.ts';
import type { RecordedRequest } from './recording-server.ts';
import { hookErrors, type LedgerLine, makeScratch, onlySession, readRequests, runClient, type Scratch, scratchEnv, stallguard, withChecks } from './scratch.ts';

// One scripted Qwen Code session, end to end: the fake Chat Completions API plays the script as Qwen's
// OpenAI-compatible provider (--auth-type openai with --openai-base-url on 127.0.0.1); `stallguard install
// --agent qwen` registers the hook in the scratch ~/.qwen/settings.json or the project's
// .qwen/settings.json; the real CLI runs headless (a positional prompt, stream-json, yolo approvals).

export interface QwenScenario {
  name: string;
  script: ModelScript;
  mode: Mode;
  scope: 'project' | 'user';
  prompt?: string;
  timeoutMs?: number;
}

export interface QwenRun {
  client: NpmCli;
  scratch: Scratch;
  /** The bodies of every POST .../chat/completions, in order. */
  requests: ChatRequest[];
  /** -o stream-json events. */
  events: Record<string, unknown>[];
  code: number | null;
  /** The settings file as `stallguard install` left it. */
  installedSettings: string;
  ledger: LedgerLine[];
  hookErrors: string;
  ms: number;
}

let client: NpmCli | undefined;

export function ensureQwen(): NpmCli {
  client ??= ensureNpmCli(QWEN_CODE);
  return client;
}

export async function runQwen(scenario: QwenScenario): Promise<QwenRun> {
  const cli = ensureQwen();
  const scratch = makeScratch(scenario.name, scenario.mode);
  stallguard(scratch, ['install', '--agent', 'qwen', ...(scenario.scope === 'user' ? ['--scope', 'user'] : [])]);
  const installedSettings = readFileSync(scenario.scope === 'user' ? join(scratch.home, '.qwen', 'settings.json') : join(scratch.project, '.qwen', 'settings.json'), 'utf8');
  const server = await startFakeChatCompletions(mapStrings(scenario.script, (s) => s.replaceAll('/PROJ', scratch.project)), scratch.requestsLog);
  const env = scratchEnv(scratch, { QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' });
  const args = [...cli.prefix, '--auth-type', 'openai', '--openai-base-url', `${server.url}/v1`, '--openai-api-key', 'sk-e2e-test', '-m', 'qwen3-coder-plus', '-o', 'stream-json', '--approval-mode', 'yolo', scenario.prompt ?? 'fix the failing tests'];
  const run = await runClient(scratch, cli, args, { env, server, timeoutMs: scenario.timeoutMs });
  const requests = readRequests<RecordedRequest>(scratch)
    .filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'))
    .map((r) => r.body as ChatRequest);
  return { client: cli, scratch, requests, events: run.events, code: run.code, installedSettings, ledger: onlySession(scratch), hookErrors: hookErrors(scratch), ms: run.ms };
}

/** Runs a scenario and its checks; the scratch folder is kept, and named, when the checks fail. */
export const qwenScenario = withChecks(runQwen);

/** What the model read back for each of its tool calls, in the longest conversation (the last request). */
export function qwenToolResults(run: QwenRun): string[] {
  return chatToolResults(run.requests.at(-1));
}
