import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { Config, Mode } from '../types.ts';
import { errnoText } from '../core/errno.ts';
import { DEFAULT_CONFIG } from './defaults.ts';
import { type ConfigProblem, mergeConfig, MODES } from './validate.ts';

export const USER_CONFIG = 'config.json';
export const PROJECT_CONFIG = '.stallguard.json';

/**
 * STALLGUARD_HOME: state, ledger and user config. A hook running from a plugin keeps them in the data
 * folder the agent gives the plugin (CLAUDE_PLUGIN_DATA; Codex sets it for plugins too), which survives
 * plugin updates, unless STALLGUARD_HOME says otherwise.
 */
export function stallguardHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.STALLGUARD_HOME?.trim() || env.CLAUDE_PLUGIN_DATA?.trim();
  return set ? resolve(set) : join(env.HOME || homedir(), '.stallguard');
}

/** The nearest .stallguard.json at or above `cwd`, if any. */
export function findProjectConfig(cwd: string): string | undefined {
  let dir = resolve(cwd);
  for (let i = 0; i < 32; i++) {
    const file = join(dir, PROJECT_CONFIG);
    if (existsSync(file)) return file;
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
  return undefined;
}

export interface LoadedConfig {
  config: Config;
  problems: ConfigProblem[];
  sources: string[];
}

function readJson(file: string): { value?: unknown; problem?: string; missing?: boolean } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    return { problem: `cannot be read (${errnoText(e)})` };
  }
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { problem: `is not valid JSON (${jsonError(text, e as Error)})` };
  }
}

/** JSON.parse's message with its character offset given as a line and column, as an editor shows them. */
function jsonError(text: string, e: Error): string {
  const message = e.message.replace(/ in JSON at position \d+.*$/s, '');
  const at = /at position (\d+)/.exec(e.message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  return `${message} at line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
}

/** User config, then project config, then STALLGUARD_MODE: later ones win, field by field. */
export function loadConfig(opts: { cwd?: string; env?: NodeJS.ProcessEnv; home?: string } = {}): LoadedConfig {
  const env = opts.env ?? process.env;
  const home = opts.home ?? stallguardHome(env);
  let config = DEFAULT_CONFIG;
  const problems: ConfigProblem[] = [];
  const sources: string[] = [];
  const files = [join(home, USER_CONFIG)];
  const project = opts.cwd ? findProjectConfig(opts.cwd) : undefined;
  if (project) files.push(project);
  for (const file of files) {
    const { value, problem, missing } = readJson(file);
    if (missing) continue;
    if (problem) {
      problems.push({ source: file, field: '(file)', problem });
      continue;
    }
    const merged = mergeConfig(config, value, file);
    config = merged.config;
    problems.push(...merged.problems);
    sources.push(file);
  }
  const mode = env.STALLGUARD_MODE?.trim();
  if (mode) {
    if (MODES.includes(mode as Mode)) config = { ...config, mode: mode as Mode };
    else problems.push({ source: 'the environment', field: 'STALLGUARD_MODE', problem: `must be one of ${MODES.map((m) => JSON.stringify(m)).join(', ')}`, value: mode, fallback: config.mode });
  }
  return { config, problems, sources };
}
