import { appendFileSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentName, Decision, EventKind } from '../types.ts';
import { adapterFor, detectAgent } from '../adapters/detect.ts';
import { loadConfig, stallguardHome } from '../config/load.ts';
import { observation } from '../core/step.ts';
import { ERROR_LOG, sessionFile } from '../store/paths.ts';
import { appendLine, observeInLog } from '../store/session-log.ts';
import { attachTree } from './tree.ts';

// The hot path: one process per tool call. It must fail open: whatever goes wrong (garbage on stdin,
// unreadable state, a bug), the agent carries on, an error line goes to STALLGUARD_HOME/errors.log, and
// nothing but the agent's response is ever printed on stdout.

export const AGENTS: readonly AgentName[] = ['claude', 'codex', 'gemini', 'cursor', 'copilot'];

export interface HookInput {
  stdin: string;
  argv: string[];
  env: NodeJS.ProcessEnv;
  /** The folder of the running hook bundle, protected from edits like stallguard's own files. */
  selfDir?: string;
}

export interface HookOutput {
  stdout: string;
  decision?: Decision;
  /** The kind of event decided, when one was. */
  kind?: EventKind;
}

function agentFlag(argv: string[]): AgentName | undefined {
  const i = argv.findIndex((a) => a === '--agent' || a.startsWith('--agent='));
  if (i === -1) return undefined;
  const value = argv[i]!.includes('=') ? argv[i]!.split('=')[1] : argv[i + 1];
  return AGENTS.includes(value as AgentName) ? (value as AgentName) : undefined;
}

export function logError(home: string, where: string, error: unknown): void {
  try {
    mkdirSync(home, { recursive: true, mode: 0o700 });
    const message = error instanceof Error ? (error.name === 'Error' ? error.message : `${error.name}: ${error.message}`) : String(error);
    appendFileSync(join(home, ERROR_LOG), `${new Date().toISOString()} ${where}: ${message.replace(/\s+/g, ' ').slice(0, 500)}\n`, { mode: 0o600 });
  } catch {
    // nowhere left to report; the agent still carries on
  }
}

export function runHook(input: HookInput): HookOutput {
  const { env } = input;
  if (env.STALLGUARD_MODE?.trim() === 'off') return { stdout: '' };
  const home = stallguardHome(env);
  try {
    if (input.stdin.trim().length === 0) return { stdout: '' };
    let payload: unknown;
    try {
      payload = JSON.parse(input.stdin);
    } catch {
      logError(home, 'hook', new Error(`stdin is not JSON (${input.stdin.length} bytes)`));
      return { stdout: '' };
    }
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) {
      logError(home, 'hook', new Error('stdin is not a JSON object'));
      return { stdout: '' };
    }
    const p = payload as Record<string, unknown>;
    const name = agentFlag(input.argv) ?? detectAgent(p, env);
    const adapter = name ? adapterFor(name) : undefined;
    const parsed = adapter?.parse(p, env);
    if (!adapter || !parsed) return { stdout: '' };
    const { config, problems } = loadConfig({ cwd: parsed.event.cwd, env, home });
    for (const problem of problems) logError(home, 'config', new Error(`${problem.source}: ${problem.field} ${problem.problem}`));
    if (config.mode === 'off') return { stdout: '' };

    const event = attachTree(parsed.event);
    const obs = observation(event, { cwd: event.cwd, home: env.HOME || homedir(), stallguardHome: home, selfDir: input.selfDir });
    const file = sessionFile(home, event.session);
    const meta = { t: 'm' as const, session: event.session, agent: adapter.name, time: Date.now(), ...(event.cwd ? { cwd: event.cwd } : {}) };
    const { decision, id } = observeInLog(file, obs, config, meta);
    if (decision.action !== 'allow' && !decision.repeat) {
      appendLine(file, { t: 'd', id, d: decision, mode: config.mode, time: Date.now() });
    }
    if (config.mode !== 'enforce') return { stdout: '', decision, kind: event.kind };
    return { stdout: adapter.render(parsed, decision), decision, kind: event.kind };
  } catch (error) {
    logError(home, 'hook', error);
    return { stdout: '' };
  }
}
