import type { Config, Mode } from '../types.ts';

// Config comes from files a person edits by hand: every problem is named with its field, and a bad field
// never takes the others down with it.

export const MODES: readonly Mode[] = ['shadow', 'enforce', 'off'];

/** What a field must be ("a whole number from 2 to 100"), or undefined when the value is one. */
type Check = (v: unknown) => string | undefined;
const int =
  (min: number, max: number): Check =>
  (v) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max
      ? undefined
      : `a whole number from ${min} to ${max}`;
const num =
  (min: number, max: number): Check =>
  (v) =>
    typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? undefined : `a number from ${min} to ${max}`;
const strings: Check = (v) =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : 'a list of strings';
const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'true or false');
const oneOfThese =
  (values: readonly string[]): Check =>
  (v) =>
    values.includes(v as string) ? undefined : `one of ${values.map((x) => JSON.stringify(x)).join(', ')}`;

const FIELDS: Record<string, Check> = {
  mode: oneOfThese(MODES),
  window: int(5, 200),
  repeat: int(2, 100),
  pollRepeat: int(2, 1000),
  failRepeat: int(2, 1000),
  unchangedFailures: int(2, 1000),
  sameFailures: int(2, 1000),
  cycleRepeats: int(2, 100),
  maxCycle: int(2, 10),
  stopAfterStalls: int(1, 100),
  spawnCap: int(0, 10_000),
  orchestrators: strings,
  stopAfterRefusals: int(1, 100),
  exemptTools: strings,
  verifyBeforeStop: bool,
  chant: int(2, 1000),
};
const str: Check = (v) => (typeof v === 'string' && v.length > 0 ? undefined : 'a non-empty string');
const LLM_FIELDS: Record<string, Check> = {
  enabled: bool,
  decide: bool,
  provider: oneOfThese(['anthropic', 'openai']),
  model: str,
  baseUrl: (v) => (typeof v === 'string' && /^https?:\/\/\S+$/.test(v) ? undefined : 'an http(s) URL'),
  apiKeyEnv: (v) =>
    typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) ? undefined : 'an environment variable name',
  timeoutMs: int(100, 60_000),
  smell: num(0, 1),
  confidence: num(0, 1),
};
/** The signals a level can be set for: those the judge weighs. */
/** The failure and poll floors `stallguard tune` may move: with judge.levels, all a tuned layer holds. */
export const TUNED_FLOORS = ['failRepeat', 'unchangedFailures', 'sameFailures', 'pollRepeat'] as const;

export const LEVEL_SIGNALS = [
  'REPEAT',
  'CYCLE',
  'NEAR_DUPLICATE',
  'SAME_FAILURE',
  'FAILING_RETRY',
  'NO_TREE_CHANGE',
  'UNMOVED_FAILURE',
  'UNSEEN_EDIT',
  'EDIT_REJECTED',
  'REPEATED_EDIT',
  'TREE_OSCILLATION',
  'EMPTY_RESULT',
  'INTENT_RETRY',
  'FRUITLESS',
  'HUNT',
  'SAME_OUTCOME',
  'REREAD',
  'MALFORMED',
];
const levels: Check = (v) =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.entries(v).every(
    ([k, x]) =>
      LEVEL_SIGNALS.includes(k) && (x === null || (Number.isInteger(x) && (x as number) >= 2 && (x as number) <= 100)),
  )
    ? undefined
    : `an object of signal levels (${LEVEL_SIGNALS.join(', ')}), each a whole number from 2 to 100 or null`;
const JUDGE_FIELDS: Record<string, Check> = {
  enabled: bool,
  threshold: num(0, 1),
  stopThreshold: num(0, 1),
  denyThreshold: num(0, 1.01),
  levels,
};

export interface ConfigProblem {
  /** The file (or STALLGUARD_MODE, or createDetector) the setting came from. */
  source: string;
  /** The setting, `judge.threshold` for a nested one; `(file)` for the file as a whole. */
  field: string;
  /** What is wrong, as a sentence's end: "must be a whole number from 2 to 100", "is not a known setting". */
  problem: string;
  /** The value given, for a setting of the wrong kind or out of range. */
  value?: unknown;
  /** The value in force instead (the default, or an earlier file's). */
  fallback?: unknown;
}

const FIELD_NAMES = [
  ...Object.keys(FIELDS),
  ...Object.keys(JUDGE_FIELDS).map((k) => `judge.${k}`),
  ...Object.keys(LLM_FIELDS).map((k) => `llm.${k}`),
];

/** Edit distance, for "did you mean" on a misspelt setting. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

function unknown(source: string, field: string): ConfigProblem {
  const near = FIELD_NAMES.filter((f) => distance(f.toLowerCase(), field.toLowerCase()) <= 2).sort(
    (a, b) => distance(a, field) - distance(b, field),
  )[0];
  return { source, field, problem: `is not a known setting${near ? ` (did you mean "${near}"?)` : ''}` };
}

function invalid(source: string, field: string, expected: string, value: unknown, fallback: unknown): ConfigProblem {
  return { source, field, problem: `must be ${expected}`, value, fallback };
}

/** A value as the person wrote it in the file. */
function shown(v: unknown): string {
  const text = JSON.stringify(v);
  return text === undefined ? String(v) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * One problem as a line for a person: the file, the setting, what it is, what it should be, and what is used instead.
 */
export function describeProblem(p: ConfigProblem): string {
  if (p.field === '(file)') return `${p.source} ${p.problem}; none of its settings apply`;
  if (!('value' in p)) return `${p.source}: ${p.field} ${p.problem}; it is ignored`;
  return `${p.source}: ${p.field} is ${shown(p.value)}, but it ${p.problem}; using ${shown(p.fallback)} instead`;
}

/** Merges the valid fields of `raw` over `base`; returns the problems found in the others. */
export function mergeConfig(base: Config, raw: unknown, source: string): { config: Config; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { config: base, problems: [{ source, field: '(file)', problem: 'must hold a JSON object' }] };
  }
  const next: Record<string, unknown> = { ...base, judge: { ...base.judge }, llm: { ...base.llm } };
  for (const [field, value] of Object.entries(raw as Record<string, unknown>)) {
    if (field === '$schema' || field === '//' || field.startsWith('_')) continue;
    const nested = field === 'judge' ? JUDGE_FIELDS : field === 'llm' ? LLM_FIELDS : undefined;
    if (nested) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problems.push(invalid(source, field, 'an object', value, next[field]));
        continue;
      }
      // a provider given without the rest takes that provider's defaults
      if (field === 'llm' && (value as Record<string, unknown>).provider === 'openai')
        Object.assign(next.llm as object, {
          baseUrl: 'https://api.openai.com',
          apiKeyEnv: 'OPENAI_API_KEY',
          model: 'gpt-5-mini',
        });
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const check = nested[k];
        const expected = check?.(v);
        const into = next[field] as Record<string, unknown>;
        if (!check) problems.push(unknown(source, `${field}.${k}`));
        else if (expected) problems.push(invalid(source, `${field}.${k}`, expected, v, into[k]));
        // levels from several files add up, signal by signal: a later file sets only the signals it names
        else
          into[k] = field === 'judge' && k === 'levels' ? { ...(into[k] as object | undefined), ...(v as object) } : v;
      }
      continue;
    }
    const check = FIELDS[field];
    const expected = check?.(value);
    if (!check) problems.push(unknown(source, field));
    else if (expected) problems.push(invalid(source, field, expected, value, next[field]));
    else next[field] = value;
  }
  return { config: next as unknown as Config, problems };
}
