import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Turn } from './model-script.ts';
import { type NpmCliSpec, OPENCODE_CLI, PI_CLI } from './npm-cli.ts';
import type { Scratch } from './scratch.ts';

// The two agents that load stallguard in-process, as the e2e drive them: both are pointed at the fake
// Anthropic Messages API on 127.0.0.1 through a custom provider of their own configuration, and run
// headless with their JSON event stream on stdout (docs/agents.md has where each fact comes from).

export interface PluginAgent {
  agent: 'opencode' | 'pi';
  cli: NpmCliSpec;
  /** Writes the agent's provider configuration, in the scratch HOME, for the fake model at `url`. */
  configure(scratch: Scratch, url: string): void;
  /** The CLI's arguments for one headless run of `prompt`. */
  args(prompt: string): string[];
  /** What the agent's environment needs besides the scratch one. */
  env: Record<string, string>;
  /** A model turn that runs `command` with the agent's shell tool. */
  shell(command: string): Turn;
}

const MODEL = 'claude-fake';

export const OPENCODE: PluginAgent = {
  agent: 'opencode',
  cli: OPENCODE_CLI,
  configure(scratch, url) {
    const dir = join(scratch.home, '.config', 'opencode');
    mkdirSync(dir, { recursive: true });
    const provider = {
      npm: '@ai-sdk/anthropic',
      name: 'Fake',
      options: { baseURL: `${url}/v1`, apiKey: 'sk-e2e-test' },
      models: { [MODEL]: { name: 'Fake', tool_call: true } },
    };
    writeFileSync(
      join(dir, 'opencode.json'),
      JSON.stringify(
        {
          $schema: 'https://opencode.ai/config.json',
          provider: { fake: provider },
          model: `fake/${MODEL}`,
          autoupdate: false,
          share: 'disabled',
        },
        null,
        2,
      ),
    );
  },
  args: (prompt) => ['run', '--format', 'json', prompt],
  env: {
    // opencode installs @opencode-ai/plugin into each config folder with npm at start-up and waits for it;
    // offline, npm fails at once (the plugin needs none of it) instead of retrying the registry for a minute
    npm_config_offline: 'true',
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
  },
  shell: (command) => [{ tool: 'bash', input: { command, description: 'Run a command' } }],
};

export const PI: PluginAgent = {
  agent: 'pi',
  cli: PI_CLI,
  configure(scratch, url) {
    const dir = join(scratch.home, '.pi', 'agent');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'models.json'),
      JSON.stringify(
        {
          providers: {
            fake: {
              baseUrl: url,
              api: 'anthropic-messages',
              apiKey: 'sk-e2e-test',
              models: [{ id: MODEL, reasoning: false }],
            },
          },
        },
        null,
        2,
      ),
    );
  },
  args: (prompt) => ['--mode', 'json', '-p', '--provider', 'fake', '--model', MODEL, prompt],
  env: { PI_OFFLINE: '1' },
  shell: (command) => [{ tool: 'bash', input: { command } }],
};
