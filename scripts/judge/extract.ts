// Signals at every call of a labeled trajectory, read through the engine exactly as live, but with every
// stall switched off so that no window is ever reset: the raw material the judge is fitted on.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config, SignalCode } from '../../src/types.ts';
import { DEFAULT_CONFIG } from '../../src/config/defaults.ts';
import { reduce } from '../../src/engine/engine.ts';
import { initialState } from '../../src/engine/state.ts';
import { observation } from '../../src/engine/step.ts';
import { readTrajectory } from '../../src/readers/read-file.ts';
import { readSignals } from '../../src/judge/signals.ts';
import type { ReplayItem } from '../../src/readers/types.ts';
import type { Observation } from '../../src/types.ts';

export interface Segment {
  start: number;
  clear: number;
  end: number;
  kind: string;
  confidence: 'high' | 'medium';
}

export interface Label {
  id: string;
  overall: 'healthy' | 'stuck-recovered' | 'stuck-ended';
  segments: Segment[];
}

export interface Trajectory {
  label: Label;
  /** Which labeled set it comes from: real users' sessions, or SWE-bench-style runs. */
  source: 'users' | 'swe';
  /** The agent (users: claude-code, codex, gemini-cli) or harness (swe: mini-swe-agent, coder, claude-code) that ran it. */
  agent: string;
  /** Who it belongs to, for folds that never split one person's (or one repository's) sessions: the owner, or the task's repository. */
  group: string;
  outcome?: string;
  items: ReplayItem[];
  /** The items' observations, computed once: replays at many thresholds reuse them. */
  observations: Observation[];
  /** Signals after each call: step index -> signal values. */
  steps: { step: number; values: Partial<Record<SignalCode, number>> }[];
}

// every floor off too: a stall would empty the window, and the signals after it would be lost
const SILENT: Config = {
  ...DEFAULT_CONFIG,
  repeat: 1e9,
  pollRepeat: 1e9,
  failRepeat: 1e9,
  unchangedFailures: 1e9,
  sameFailures: 1e9,
  cycleRepeats: 1e9,
  spawnCap: 1e9,
  judge: { ...DEFAULT_CONFIG.judge, enabled: false },
};

export function loadLabels(file: string): Label[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Label);
}

interface Meta {
  outcome?: string;
  owner?: string;
  agent?: string;
  source?: string;
  task_repo?: string;
  instance?: string;
}

/** The repository an SWE-bench-style task is about: `django__django-11728` is django/django. */
function taskRepo(meta: Meta): string {
  if (meta.task_repo) return meta.task_repo;
  const m = /^(.+?)__(.+)-\d+$/.exec(meta.instance ?? '');
  return m ? `${m[1]}/${m[2]}` : (meta.instance ?? 'unknown');
}

export function loadTrajectory(tracesDir: string, label: Label, source: Trajectory['source'] = 'swe'): Trajectory {
  const file = join(tracesDir, `${label.id}.jsonl`);
  const meta = JSON.parse(readFileSync(file, 'utf8').split('\n', 1)[0]!).meta as Meta;
  const agent = source === 'users' ? (meta.agent ?? 'unknown') : (meta.source ?? 'unknown').replace(/_.*$/, '');
  const group = source === 'users' ? `person:${meta.owner ?? label.id}` : `repo:${taskRepo(meta)}`;
  const items = [...readTrajectory(file, 'trace').items];
  let state = initialState();
  const steps: Trajectory['steps'] = [];
  const observations = items.map((item) => observation(item.event, {}));
  for (const [i, item] of items.entries()) {
    state = reduce(state, observations[i]!, SILENT).state;
    if (item.event.kind !== 'post-tool') continue;
    const window = state.agents[item.event.agent.id]?.window ?? [];
    const values: Partial<Record<SignalCode, number>> = {};
    for (const s of readSignals(window, DEFAULT_CONFIG.maxCycle))
      values[s.code] = Math.max(values[s.code] ?? 0, s.value);
    steps.push({ step: item.step, values });
  }
  return {
    label,
    source,
    agent,
    group,
    ...(meta.outcome ? { outcome: meta.outcome } : {}),
    items,
    observations,
    steps,
  };
}
