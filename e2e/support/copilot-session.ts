import { join } from 'node:path';
import { type ChatClient, type ChatRun, type ChatScenario, runChatClient } from './chat-session.ts';
import { COPILOT_CLI, ensureNpmCli, type NpmCli } from './npm-cli.ts';
import { withChecks } from './scratch.ts';

// GitHub Copilot CLI, headless: `-p`, JSON lines, every tool allowed. The fake is Copilot's own model
// provider (BYOK: COPILOT_PROVIDER_BASE_URL), and COPILOT_OFFLINE keeps it from reaching anything else (no
// GitHub sign-in, telemetry or update check). A project's .github/hooks load in -p mode only in a trusted
// folder: --trust-folder. The model is named claude-sonnet-4.5 so that Copilot offers its documented tools
// (bash, view, create, edit, grep, glob, task); GPT names get apply_patch instead of create/edit.

let cli: NpmCli | undefined;

export function ensureCopilot(): NpmCli {
  cli ??= ensureNpmCli(COPILOT_CLI);
  return cli;
}

const copilot = (): ChatClient => ({
  cli: ensureCopilot(),
  agent: 'copilot',
  hookFile: (scratch, scope) =>
    scope === 'user'
      ? join(scratch.home, '.copilot', 'hooks', 'stallguard.json')
      : join(scratch.project, '.github', 'hooks', 'stallguard.json'),
  env: (url) => ({
    COPILOT_OFFLINE: 'true',
    COPILOT_PROVIDER_BASE_URL: `${url}/v1`,
    COPILOT_PROVIDER_API_KEY: 'sk-e2e-test',
    COPILOT_MODEL: 'claude-sonnet-4.5',
  }),
  args: (_url, s) => [
    '-p',
    s.prompt ?? 'fix the failing tests',
    '--allow-all-tools',
    '--output-format',
    'json',
    '--no-auto-update',
    ...(s.scope === 'project' ? ['--trust-folder'] : []),
  ],
});

/** Runs a scenario and its checks; the scratch folder is kept, and named, when the checks fail. */
export const copilotScenario = withChecks((scenario: ChatScenario) => runChatClient(copilot(), scenario));

/** Copilot's own account of each call: tool.execution_complete events of the JSON stream. */
export function copilotExecutions(
  run: ChatRun,
): { toolName?: string; success?: boolean; error?: { message?: string } }[] {
  const names = new Map(
    run.events
      .filter((e) => e.type === 'tool.execution_start')
      .map((e) => [(e.data as Record<string, string>).toolCallId, (e.data as Record<string, string>).toolName]),
  );
  return run.events
    .filter((e) => e.type === 'tool.execution_complete')
    .map((e) => e.data as { toolCallId?: string; success?: boolean; error?: { message?: string } })
    .map((d) => ({ ...d, toolName: names.get(d.toolCallId) }));
}
