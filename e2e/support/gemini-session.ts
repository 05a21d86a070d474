import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Mode } from '../../src/types.ts';
import { type GenerateRequest, startFakeGemini } from './fake-gemini.ts';
import type { ModelScript } from './model-script.ts';
import { ensureNpmCli, GEMINI_CLI, type NpmCli } from './npm-cli.ts';
import type { RecordedRequest } from './recording-server.ts';
import {
  hookErrors,
  type LedgerLine,
  makeScratch,
  onlySession,
  readRequests,
  REPO,
  runClient,
  type Scratch,
  scratchEnv,
  stallguard,
  withChecks,
} from './scratch.ts';

// One scripted Gemini CLI session, end to end: the fake Gemini API plays the script; the scratch user
// settings select API-key auth (without it headless Gemini exits 41, ../shared/e2e/REPORT.md §3) and then
// `stallguard install --agent gemini --scope user` adds the hooks beside that setting, as a person would;
// the real CLI runs headless (-p, stream-json, yolo) in the scratch project.

export interface GeminiScenario {
  name: string;
  script: ModelScript;
  mode: Mode;
  prompt?: string;
  timeoutMs?: number;
  /** A shared install (--scope project) in place of the user one, with `stallguard` on PATH or missing from it. */
  shared?: 'on PATH' | 'missing';
}

export interface GeminiRun {
  client: NpmCli;
  scratch: Scratch;
  /** The bodies of the requests that offered tools (the agent's turns), in order. */
  requests: GenerateRequest[];
  /** -o stream-json events. */
  events: Record<string, unknown>[];
  code: number | null;
  /** The settings file `stallguard install` wrote (~/.gemini/settings.json; for a shared install, the project's), as it left it. */
  installedSettings: string;
  ledger: LedgerLine[];
  hookErrors: string;
  ms: number;
}

let client: NpmCli | undefined;

export function ensureGemini(): NpmCli {
  client ??= ensureNpmCli(GEMINI_CLI);
  return client;
}

/** The scratch user settings: API-key auth, and `extra` beside it; returns the file. */
export function writeGeminiSettings(scratch: Scratch, extra: Record<string, unknown> = {}): string {
  const settings = join(scratch.home, '.gemini', 'settings.json');
  mkdirSync(join(scratch.home, '.gemini'), { recursive: true });
  writeFileSync(
    settings,
    JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } }, ...extra }, null, 2) + '\n',
  );
  return settings;
}

/**
 * The environment of a shared install's session: the project folder trusted (Gemini runs a project's hooks
 * in a trusted folder only; a person trusts it when asked), and PATH with a `stallguard` of this checkout
 * (as `npm install -g` leaves one) or with none at all.
 */
function sharedEnv(scratch: Scratch, shared: 'on PATH' | 'missing'): Record<string, string> {
  const dirs = (process.env.PATH ?? '/usr/bin:/bin')
    .split(delimiter)
    .filter((d) => d && !existsSync(join(d, 'stallguard')));
  if (shared === 'on PATH') {
    const bin = join(scratch.root, 'bin');
    mkdirSync(bin);
    symlinkSync(join(REPO, 'dist', 'cli.js'), join(bin, 'stallguard'));
    dirs.unshift(bin);
  }
  return { GEMINI_CLI_TRUST_WORKSPACE: 'true', PATH: dirs.join(delimiter) };
}

/** A headless Gemini CLI run of one prompt, every tool allowed. */
export function geminiArgs(cli: NpmCli, prompt: string): string[] {
  return [...cli.prefix, '-p', prompt, '-o', 'stream-json', '--approval-mode', 'yolo', '--skip-trust'];
}

export async function runGemini(scenario: GeminiScenario): Promise<GeminiRun> {
  const cli = ensureGemini();
  const scratch = makeScratch(scenario.name, scenario.mode);
  const user = writeGeminiSettings(scratch);
  stallguard(scratch, ['install', '--agent', 'gemini', '--scope', scenario.shared ? 'project' : 'user']);
  const installedSettings = readFileSync(
    scenario.shared ? join(scratch.project, '.gemini', 'settings.json') : user,
    'utf8',
  );
  const server = await startFakeGemini(scenario.script, scratch.requestsLog);
  const env = scratchEnv(scratch, {
    GOOGLE_GEMINI_BASE_URL: server.url,
    GEMINI_API_KEY: 'sk-e2e-test',
    ...(scenario.shared ? sharedEnv(scratch, scenario.shared) : {}),
  });
  const args = geminiArgs(cli, scenario.prompt ?? 'fix the failing tests');
  const run = await runClient(scratch, cli, args, { env, server, timeoutMs: scenario.timeoutMs });
  const requests = readRequests<RecordedRequest>(scratch)
    .map((r) => r.body as GenerateRequest | undefined)
    .filter((b): b is GenerateRequest => Array.isArray(b?.tools) && b.tools.length > 0);
  return {
    client: cli,
    scratch,
    requests,
    events: run.events,
    code: run.code,
    installedSettings,
    ledger: onlySession(scratch),
    hookErrors: hookErrors(scratch),
    ms: run.ms,
  };
}

/** Runs a scenario and its checks; the scratch folder is kept, and named, when the checks fail. */
export const geminiScenario = withChecks(runGemini);

/** What the model read back for each of its tool calls (functionResponse.response), in the longest conversation. */
export function geminiToolResults(run: GeminiRun): { output?: string; error?: string }[] {
  return (run.requests.at(-1)?.contents ?? [])
    .flatMap((c) => c.parts ?? [])
    .filter((p) => p.functionResponse)
    .map((p) => p.functionResponse!.response as { output?: string; error?: string });
}

/** The stream-json tool results, as the person running Gemini saw them. */
export function geminiStreamResults(
  run: GeminiRun,
): { status?: string; output?: string; error?: { message?: string } }[] {
  return run.events.filter((e) => e.type === 'tool_result') as {
    status?: string;
    output?: string;
    error?: { message?: string };
  }[];
}
