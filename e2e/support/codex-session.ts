import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mode } from '../../src/types.ts';
import { type ResponseItem, type ResponsesRequest, startFakeOpenAI, textOf } from './fake-openai.ts';
import type { ModelScript } from './model-script.ts';
import { CODEX_CLI, ensureNpmCli, type NpmCli } from './npm-cli.ts';
import type { RecordedRequest } from './recording-server.ts';
import {
  hookErrors,
  type LedgerLine,
  makeScratch,
  onlySession,
  readRequests,
  runClient,
  type Scratch,
  scratchEnv,
  stallguard,
  withChecks,
} from './scratch.ts';

// One scripted Codex CLI session, end to end: the fake Responses API plays the script, as the model provider
// of the scratch CODEX_HOME/config.toml; `stallguard install --agent codex --scope user` registers the hook
// there, as a person would: in hooks.json, or with --config-toml as [[hooks.*]] tables appended to that
// config.toml; the real CLI runs headless (codex exec --json) in the scratch project. Hooks need trust in /hooks, which a
// headless run cannot give, so the run passes --dangerously-bypass-hook-trust (../shared/e2e/REPORT.md §2).

export interface CodexScenario {
  name: string;
  script: ModelScript;
  mode: Mode;
  /** Where the hook goes: hooks.json (the default) or the config.toml tables. */
  hooksIn?: 'hooks.json' | 'config.toml';
  prompt?: string;
  timeoutMs?: number;
}

export interface CodexRun {
  client: NpmCli;
  scratch: Scratch;
  /** The bodies of every POST /v1/responses, in order. */
  requests: ResponsesRequest[];
  /** codex exec --json events. */
  events: Record<string, unknown>[];
  code: number | null;
  /** $CODEX_HOME/hooks.json, or config.toml, as `stallguard install` left it. */
  installedHooks: string;
  ledger: LedgerLine[];
  hookErrors: string;
  ms: number;
}

let client: NpmCli | undefined;

export function ensureCodex(): NpmCli {
  client ??= ensureNpmCli(CODEX_CLI);
  return client;
}

/** $CODEX_HOME/config.toml for the fake Responses API at `url`. */
export function providerConfig(url: string): string {
  return [
    'model = "gpt-fake"',
    'model_provider = "fake"',
    'approval_policy = "never"',
    'sandbox_mode = "danger-full-access"',
    '[model_providers.fake]',
    'name = "fake"',
    `base_url = "${url}/v1"`,
    'env_key = "FAKE_OPENAI_KEY"',
    'wire_api = "responses"',
    'request_max_retries = 0',
    'stream_max_retries = 0',
    '',
  ].join('\n');
}

/** A headless Codex run of one prompt, its hooks run without the trust a person gives in /hooks. */
export function codexArgs(cli: NpmCli, prompt: string): string[] {
  return [...cli.prefix, 'exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', prompt];
}

export async function runCodex(scenario: CodexScenario): Promise<CodexRun> {
  const cli = ensureCodex();
  const scratch = makeScratch(scenario.name, scenario.mode);
  const codexHome = join(scratch.home, '.codex');
  mkdirSync(codexHome, { recursive: true });
  const server = await startFakeOpenAI(scenario.script, scratch.requestsLog);
  writeFileSync(join(codexHome, 'config.toml'), providerConfig(server.url));
  const toml = scenario.hooksIn === 'config.toml';
  let installedHooks: string;
  try {
    stallguard(scratch, ['install', '--agent', 'codex', '--scope', 'user', ...(toml ? ['--config-toml'] : [])]);
    installedHooks = readFileSync(join(codexHome, toml ? 'config.toml' : 'hooks.json'), 'utf8');
  } catch (error) {
    await server.close();
    throw error;
  }
  const env = scratchEnv(scratch, { CODEX_HOME: codexHome, FAKE_OPENAI_KEY: 'sk-e2e-test' });
  const args = codexArgs(cli, scenario.prompt ?? 'fix the failing tests');
  const run = await runClient(scratch, cli, args, { env, server, timeoutMs: scenario.timeoutMs });
  const requests = readRequests<RecordedRequest>(scratch)
    .filter((r) => r.method === 'POST' && r.path.endsWith('/responses'))
    .map((r) => r.body as ResponsesRequest);
  return {
    client: cli,
    scratch,
    requests,
    events: run.events,
    code: run.code,
    installedHooks,
    ledger: onlySession(scratch),
    hookErrors: hookErrors(scratch),
    ms: run.ms,
  };
}

/** Runs a scenario and its checks; the scratch folder is kept, and named, when the checks fail. */
export const codexScenario = withChecks(runCodex);

/** What the model saw after each of its tool calls: the output, and the developer messages hooks added beside it. */
export interface CodexToolResult {
  output: string;
  /** Developer messages that arrived with this output (Codex puts PostToolUse additionalContext there). */
  context: string[];
}

/** The tool results of the longest conversation (the last request), in order. */
export function codexToolResults(run: CodexRun): CodexToolResult[] {
  const input: ResponseItem[] = run.requests.at(-1)?.input ?? [];
  const results: CodexToolResult[] = [];
  // the developer context of a call lands between its function_call and function_call_output
  let pending: string[] = [];
  for (const item of input) {
    if (item.type === 'function_call') pending = [];
    else if (item.type === 'message' && item.role === 'developer') pending.push(textOf(item));
    else if (item.type === 'function_call_output') {
      results.push({
        output: typeof item.output === 'string' ? item.output : JSON.stringify(item.output),
        context: pending,
      });
      pending = [];
    }
  }
  return results;
}
