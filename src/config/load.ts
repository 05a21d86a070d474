import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Config, Mode } from '../types.ts';
import { errnoText } from '../core/errno.ts';
import { userHome } from '../core/user-home.ts';
import { DEFAULT_CONFIG } from './defaults.ts';
import { type ConfigProblem, mergeConfig, MODES, TUNED_FLOORS } from './validate.ts';

export const USER_CONFIG = 'config.json';
export const PROJECT_CONFIG = '.stallguard.json';
/**
 * The settings `stallguard tune --write` fitted to the person's
 * verdicts: a layer of its own, under the file of its scope.
 */
export const USER_TUNED = 'tuned.json';
export const PROJECT_TUNED = '.stallguard.tuned.json';

/**
 * STALLGUARD_HOME: state, ledger and user config. A hook running from a plugin keeps them in the data
 * folder the agent gives the plugin (CLAUDE_PLUGIN_DATA; Codex sets it for plugins too), which survives
 * plugin updates, unless STALLGUARD_HOME says otherwise.
 */
export function stallguardHome(env: NodeJS.ProcessEnv = process.env): string {
  const set = env.STALLGUARD_HOME?.trim() || env.CLAUDE_PLUGIN_DATA?.trim();
  return set ? resolve(set) : join(userHome(env), '.stallguard');
}

/**
 * The project's config files: those in the nearest folder at or above `cwd` that holds either. The walk
 * stops there, so a tuned layer of an enclosing project never slips beneath a nearer project's own file.
 */
function projectFiles(cwd: string): { project?: string; tuned?: string } {
  for (let dir = resolve(cwd), i = 0; i < 32; i++) {
    const project = join(dir, PROJECT_CONFIG);
    const tuned = join(dir, PROJECT_TUNED);
    const found = { ...(existsSync(project) ? { project } : {}), ...(existsSync(tuned) ? { tuned } : {}) };
    if (found.project || found.tuned) return found;
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return {};
}

/** Where a config layer comes from: the person's own files, or what `stallguard tune` wrote beneath them. */
export interface ConfigLayer {
  file: string;
  scope: 'user' | 'project';
  tuned: boolean;
}

/**
 * The config files in force at `cwd`, in the order they apply (later ones win): the user's tuned layer, the
 * user's config, the project's tuned layer, the project's config. A hand-written file wins over what tune
 * fitted in its scope, so a setting the person chose is never overridden by one learned.
 */
export function configLayers(home: string, cwd?: string): ConfigLayer[] {
  const { project, tuned: projectTuned } = cwd ? projectFiles(cwd) : {};
  const layers: ConfigLayer[] = [
    { file: join(home, USER_TUNED), scope: 'user', tuned: true },
    { file: join(home, USER_CONFIG), scope: 'user', tuned: false },
  ];
  if (projectTuned) layers.push({ file: projectTuned, scope: 'project', tuned: true });
  if (project) layers.push({ file: project, scope: 'project', tuned: false });
  return layers;
}

/** What a tuned layer says of itself (its `_tuned` field): when it was fitted, and on how many verdicts. */
export interface TunedInfo {
  file: string;
  scope: 'user' | 'project';
  date?: string;
  verdicts?: number;
  /** Setting -> [the value beneath the layer, the value it sets], as tune noted it when it wrote the layer. */
  changed?: Record<string, [unknown, unknown]>;
  /** Setting -> the value the layer sets, read from the layer itself. */
  sets: Record<string, unknown>;
}

/** A tuned layer's settings without what tune never writes, and a problem for each thing left out. */
function tunedOnly(value: unknown, file: string, problems: ConfigProblem[]): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const judge =
      k === 'judge' && v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
    if (k.startsWith('_') || (TUNED_FLOORS as readonly string[]).includes(k)) out[k] = v;
    else if (judge && Object.keys(judge).every((j) => j === 'levels')) out[k] = v;
    else
      problems.push({
        source: file,
        field: judge ? `judge.${Object.keys(judge).find((j) => j !== 'levels')}` : k,
        problem:
          'is not a setting stallguard tune writes (a tuned layer holds judge.levels and the failure and poll floors)',
      });
  }
  return out;
}

function tunedInfo(layer: ConfigLayer, value: unknown, settings: unknown): TunedInfo {
  const meta = (value as { _tuned?: unknown })?._tuned as Record<string, unknown> | undefined;
  const info: TunedInfo = { file: layer.file, scope: layer.scope, sets: settingsOf(settings) };
  if (meta && typeof meta === 'object') {
    if (typeof meta.date === 'string') info.date = meta.date;
    if (typeof meta.verdicts === 'number') info.verdicts = meta.verdicts;
    if (meta.changed && typeof meta.changed === 'object') info.changed = meta.changed as TunedInfo['changed'];
  }
  return info;
}

/** A tuned layer's settings by name (`failRepeat`, `judge.levels.REREAD`), its own notes left out. */
function settingsOf(settings: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!settings || typeof settings !== 'object') return out;
  for (const [k, v] of Object.entries(settings as Record<string, unknown>)) {
    if (k.startsWith('_')) continue;
    if (k === 'judge' && v && typeof v === 'object')
      for (const [code, level] of Object.entries((v as { levels?: object }).levels ?? {}))
        out[`judge.levels.${code}`] = level;
    else out[k] = v;
  }
  return out;
}

export interface LoadedConfig {
  config: Config;
  problems: ConfigProblem[];
  sources: string[];
  /** The tuned layers in force (`stallguard tune --write`). */
  tuned: TunedInfo[];
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

/**
 * The layers of configLayers, then STALLGUARD_MODE: later ones win, field by field. `instead` gives one
 * file's content as if it held that (undefined: as if it were absent), for `stallguard tune` to see what a
 * layer would change before it writes it.
 */
export function loadConfig(
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; home?: string; instead?: { file: string; value: unknown } } = {},
): LoadedConfig {
  const env = opts.env ?? process.env;
  const home = opts.home ?? stallguardHome(env);
  let config = DEFAULT_CONFIG;
  const problems: ConfigProblem[] = [];
  const sources: string[] = [];
  const tuned: TunedInfo[] = [];
  const layers = configLayers(home, opts.cwd);
  const instead = opts.instead;
  if (instead && !layers.some((l) => l.file === instead.file)) {
    // a project layer not written yet goes beneath the project's own file, or last
    const at = layers.findIndex((l) => l.scope === 'project' && !l.tuned);
    layers.splice(at === -1 ? layers.length : at, 0, { file: instead.file, scope: 'project', tuned: true });
  }
  for (const layer of layers) {
    const { file } = layer;
    const { value, problem, missing }: ReturnType<typeof readJson> =
      instead?.file === file
        ? instead.value === undefined
          ? { missing: true }
          : { value: instead.value }
        : readJson(file);
    if (missing) continue;
    if (problem) {
      problems.push({ source: file, field: '(file)', problem });
      continue;
    }
    const settings = layer.tuned ? tunedOnly(value, file, problems) : value;
    const merged = mergeConfig(config, settings, file);
    config = merged.config;
    problems.push(...merged.problems);
    sources.push(file);
    if (layer.tuned) tuned.push(tunedInfo(layer, value, settings));
  }
  const mode = env.STALLGUARD_MODE?.trim();
  if (mode) {
    if (MODES.includes(mode as Mode)) config = { ...config, mode: mode as Mode };
    else
      problems.push({
        source: 'the environment',
        field: 'STALLGUARD_MODE',
        problem: `must be one of ${MODES.map((m) => JSON.stringify(m)).join(', ')}`,
        value: mode,
        fallback: config.mode,
      });
  }
  return { config, problems, sources, tuned };
}
