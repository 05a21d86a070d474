import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { repoRoot } from '../hook/tree.ts';
import { dirname, join, resolve } from 'node:path';
import { configLayers, PROJECT_TUNED, USER_TUNED } from '../config/load.ts';
import { KNOBS, type Settings, layerContent, changes, shown } from './settings.ts';

// The tuned layer on disk: STALLGUARD_HOME/tuned.json for the user scope, .stallguard.tuned.json for a
// project (beside its .stallguard.json, or at the top of its git work tree). It is an ordinary config file
// beneath the person's own file of the same scope, with a `_tuned` field saying when it was fitted and on
// how many verdicts (config files skip fields that start with "_").

export type Scope = 'user' | 'project';

/** Where the layer of a scope is (or would be written), seen from `cwd`. */
export function layerFile(scope: Scope, home: string, cwd: string): string {
  if (scope === 'user') return join(home, USER_TUNED);
  const project = configLayers(home, cwd).filter((l) => l.scope === 'project');
  const tuned = project.find((l) => l.tuned);
  if (tuned) return tuned.file;
  if (project[0]) return join(dirname(project[0].file), PROJECT_TUNED);
  return join(repoRoot(resolve(cwd)) ?? resolve(cwd), PROJECT_TUNED);
}

/** The project folder a project layer belongs to: the sessions whose working folder is inside it count. */
export function projectRoot(file: string): string {
  return dirname(file);
}

function readRaw(file: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The settings a hand-written file above the layer sets: tune leaves those as they are. */
export function fixedAbove(file: string, home: string, cwd: string): Map<string, string> {
  const layers = configLayers(home, cwd);
  const at = layers.findIndex((l) => l.file === file);
  // a project layer not written yet goes beneath the project's own file, which is then the only one above it
  const above = at !== -1 ? layers.slice(at + 1) : layers.filter((l) => l.scope === 'project' && !l.tuned);
  const fixed = new Map<string, string>();
  for (const l of above) {
    const raw = readRaw(l.file);
    if (!raw) continue;
    const levels = (raw.judge as { levels?: Record<string, unknown> } | undefined)?.levels;
    for (const k of KNOBS) {
      const set =
        k.kind === 'level'
          ? levels !== undefined && typeof levels === 'object' && levels !== null && k.code in levels
          : k.field in raw;
      if (set) fixed.set(k.name, l.file);
    }
  }
  return fixed;
}

export interface LayerMeta {
  date: string;
  verdicts: number;
  right: number;
  wrong: number;
  scope: Scope;
  changed: Record<string, [string, string]>;
}

/** The layer's content: the settings that differ from those beneath it, and when and from what they were fitted. */
export function layerOf(beneath: Settings, to: Settings, meta: Omit<LayerMeta, 'changed'>): Record<string, unknown> {
  const changed = Object.fromEntries(changes(beneath, to).map(([k, from, v]) => [k.name, [shown(from), shown(v)]]));
  return { _tuned: { ...meta, changed }, ...layerContent(beneath, to) };
}

export function writeLayer(file: string, content: Record<string, unknown>, scope: Scope): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    // the user's layer sits with the ledger and is as private; a project's may be committed for the team
    writeFileSync(tmp, JSON.stringify(content, null, 2) + '\n', { mode: scope === 'user' ? 0o600 : 0o644 });
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}

export function removeLayer(file: string): boolean {
  if (!existsSync(file)) return false;
  rmSync(file);
  return true;
}
