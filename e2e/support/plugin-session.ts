import { readFileSync } from 'node:fs';
import type { Mode } from '../../src/types.ts';
import { TARGETS } from '../../src/install/targets.ts';
import { type MessagesRequest, startFakeAnthropic } from './fake-anthropic.ts';
import type { ModelScript } from './model-script.ts';
import { ensureNpmCli, type NpmCli } from './npm-cli.ts';
import type { PluginAgent } from './plugin-agents.ts';
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

// One scripted opencode or pi session, end to end: `stallguard install --agent <agent>` writes the plugin
// file into the scratch project, as a person would; the agent's provider configuration points it at the
// fake Anthropic API; the real CLI runs headless in the scratch project and loads the plugin in-process.

export interface PluginScenario {
  name: string;
  script: ModelScript;
  mode: Mode;
  prompt?: string;
  timeoutMs?: number;
}

export interface PluginRun {
  client: NpmCli;
  scratch: Scratch;
  /** The agent's requests (tool-less side requests, such as opencode's title, left out), in order. */
  requests: MessagesRequest[];
  /** The CLI's JSON event stream. */
  events: Record<string, unknown>[];
  code: number | null;
  /** The plugin file `stallguard install` wrote. */
  installedPlugin: string;
  ledger: LedgerLine[];
  hookErrors: string;
  ms: number;
}

const clients = new Map<string, NpmCli>();

export function ensureAgent(a: PluginAgent): NpmCli {
  if (!clients.has(a.agent)) clients.set(a.agent, ensureNpmCli(a.cli));
  return clients.get(a.agent)!;
}

export async function runPluginAgent(a: PluginAgent, scenario: PluginScenario): Promise<PluginRun> {
  const cli = ensureAgent(a);
  const scratch = makeScratch(scenario.name, scenario.mode);
  stallguard(scratch, ['install', '--agent', a.agent]);
  const installedPlugin = readFileSync(
    TARGETS[a.agent].settingsFile('project', scratch.project, scratchEnv(scratch)),
    'utf8',
  );
  const server = await startFakeAnthropic(scenario.script, scratch.requestsLog);
  a.configure(scratch, server.url);
  const run = await runClient(scratch, cli, [...cli.prefix, ...a.args(scenario.prompt ?? 'fix the failing tests')], {
    env: scratchEnv(scratch, a.env),
    server,
    timeoutMs: scenario.timeoutMs,
  });
  const requests = readRequests<RecordedRequest>(scratch)
    .filter((r) => r.method === 'POST' && r.path === '/v1/messages')
    .map((r) => r.body as MessagesRequest)
    .filter((b) => (b.tools?.length ?? 0) > 0);
  return {
    client: cli,
    scratch,
    requests,
    events: run.events,
    code: run.code,
    installedPlugin,
    ledger: onlySession(scratch),
    hookErrors: hookErrors(scratch),
    ms: run.ms,
  };
}

/** Runs a scenario and its checks; the scratch folder is kept, and named, when the checks fail. */
export function pluginScenario(a: PluginAgent) {
  return withChecks((scenario: PluginScenario) => runPluginAgent(a, scenario));
}
