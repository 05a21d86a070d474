import { execFileSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Mode } from '../../src/types.ts';
import { type ChatRequest, chatToolResults, startFakeChatCompletions } from './fake-chat-completions.ts';
import { mapStrings, type ModelScript } from './model-script.ts';
import type { NpmCli } from './npm-cli.ts';
import type { RecordedRequest } from './recording-server.ts';
import { observedCalls } from './ledger-view.ts';
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
} from './scratch.ts';

// One scripted session of a client that takes a custom OpenAI-compatible endpoint (Copilot CLI, Qwen
// Code), end to end: `stallguard install --agent X` registers the hook at the scenario's scope, as a person
// would; the fake Chat Completions API plays the script (`/PROJ` stands for the scratch project); the real
// CLI runs headless in the scratch project, told where the fake is by `client.env` and `client.args`.

export interface ChatScenario {
  name: string;
  script: ModelScript;
  mode: Mode;
  scope: 'project' | 'user';
  prompt?: string;
  timeoutMs?: number;
}

export interface ChatClient {
  cli: NpmCli;
  agent: 'copilot' | 'qwen';
  /** The settings file `stallguard install` writes at a scope. */
  hookFile(scratch: Scratch, scope: ChatScenario['scope']): string;
  /** The environment and arguments of a headless run against the fake at `url`. */
  env(url: string): Record<string, string>;
  args(url: string, scenario: ChatScenario): string[];
}

export interface ChatRun {
  client: NpmCli;
  scratch: Scratch;
  /** The bodies of every POST .../chat/completions, in order. */
  requests: ChatRequest[];
  /** The CLI's JSON lines on stdout. */
  events: Record<string, unknown>[];
  code: number | null;
  /** The hook file as `stallguard install` left it. */
  installed: string;
  ledger: LedgerLine[];
  hookErrors: string;
  ms: number;
}

export async function runChatClient(client: ChatClient, scenario: ChatScenario): Promise<ChatRun> {
  const scratch = makeScratch(scenario.name, scenario.mode);
  stallguard(scratch, ['install', '--agent', client.agent, ...(scenario.scope === 'user' ? ['--scope', 'user'] : [])]);
  const installed = readFileSync(client.hookFile(scratch, scenario.scope), 'utf8');
  const server = await startFakeChatCompletions(
    mapStrings(scenario.script, (s) => s.replaceAll('/PROJ', scratch.project)),
    scratch.requestsLog,
  );
  const env = scratchEnv(scratch, { ...client.cli.env, ...client.env(server.url) });
  const run = await runClient(scratch, client.cli, [...client.cli.prefix, ...client.args(server.url, scenario)], {
    env,
    server,
    timeoutMs: scenario.timeoutMs,
  });
  const requests = readRequests<RecordedRequest>(scratch)
    .filter((r) => r.method === 'POST' && r.path.endsWith('/chat/completions'))
    .map((r) => r.body as ChatRequest);
  return {
    client: client.cli,
    scratch,
    requests,
    events: run.events,
    code: run.code,
    installed,
    ledger: onlySession(scratch),
    hookErrors: hookErrors(scratch),
    ms: run.ms,
  };
}

/** What the model read back for each of its tool calls, in the longest conversation (the last request). */
export function toolResults(run: ChatRun): string[] {
  return chatToolResults(run.requests.at(-1));
}

/**
 * The checks of a healthy test-driven session (npm test, read, fix, npm test, fix, npm test): the hook saw
 * all six calls, the test output changed with each fix, the work really happened, and nothing from
 * stallguard reached the model or the ledger's decisions.
 */
export function checkHealthyTdd(run: ChatRun, agent: string): void {
  const results = toolResults(run);
  assert.equal(run.hookErrors, '');
  assert.equal(run.code, 0);
  // through the daemon: the bash first stage, node after it while the daemon is down
  assert.match(
    run.installed,
    new RegExp(`hook-client\\.sh ${agent} .*--agent ${agent} --serve-port \\d+ # stallguard`),
  );
  assert.equal(observedCalls(run.ledger).get('main'), 6);
  const tests = [0, 3, 5].map((i) => /\d+ passed, \d+ failed/.exec(results[i] ?? '')?.[0]);
  assert.deepEqual(tests, ['0 passed, 2 failed', '1 passed, 1 failed', '2 passed, 0 failed']);
  execFileSync('npm', ['test', '--silent'], {
    cwd: run.scratch.project,
    env: scratchEnv(run.scratch),
    stdio: 'ignore',
  });
  // the scratch folders are named stallguard-e2e-…: what stallguard says starts `stallguard:` or `stallguard stopped`
  assert.ok(!run.requests.some((r) => /stallguard(:| stopped)/.test(JSON.stringify(r))));
  assert.ok(!run.ledger.some((l) => l.t === 'd'));
}
