import { join } from 'node:path';
import { type ChatClient, type ChatScenario, runChatClient } from './chat-session.ts';
import { ensureNpmCli, type NpmCli, QWEN_CODE } from './npm-cli.ts';
import { withChecks } from './scratch.ts';

// Qwen Code, headless: a positional prompt, stream-json, yolo approvals. The fake is its OpenAI-compatible
// provider (--auth-type openai with --openai-base-url on 127.0.0.1).

let cli: NpmCli | undefined;

export function ensureQwen(): NpmCli {
  cli ??= ensureNpmCli(QWEN_CODE);
  return cli;
}

const qwen = (): ChatClient => ({
  cli: ensureQwen(),
  agent: 'qwen',
  hookFile: (scratch, scope) =>
    scope === 'user' ? join(scratch.home, '.qwen', 'settings.json') : join(scratch.project, '.qwen', 'settings.json'),
  env: () => ({ QWEN_CODE_SUPPRESS_YOLO_WARNING: '1' }),
  args: (url, s) => [
    '--auth-type',
    'openai',
    '--openai-base-url',
    `${url}/v1`,
    '--openai-api-key',
    'sk-e2e-test',
    '-m',
    'qwen3-coder-plus',
    '-o',
    'stream-json',
    '--approval-mode',
    'yolo',
    s.prompt ?? 'fix the failing tests',
  ],
});

/** Runs a scenario and its checks; the scratch folder is kept, and named, when the checks fail. */
export const qwenScenario = withChecks((scenario: ChatScenario) => runChatClient(qwen(), scenario));
