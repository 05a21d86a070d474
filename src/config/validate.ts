import type { Config, Mode } from '../types.ts';

// Config comes from files a person edits by hand: every problem is named with its field, and a bad field
// never takes the others down with it.

export const MODES: readonly Mode[] = ['shadow', 'enforce', 'off'];

type Check = (v: unknown) => string | undefined;
const int = (min: number, max: number): Check => (v) =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? undefined : `must be a whole number from ${min} to ${max}`;
const num = (min: number, max: number): Check => (v) =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max ? undefined : `must be a number from ${min} to ${max}`;
const strings: Check = (v) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? undefined : 'must be a list of strings');
const bool: Check = (v) => (typeof v === 'boolean' ? undefined : 'must be true or false');

const FIELDS: Record<string, Check> = {
  mode: (v) => (MODES.includes(v as Mode) ? undefined : `must be one of ${MODES.join(', ')}`),
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
const str: Check = (v) => (typeof v === 'string' && v.length > 0 ? undefined : 'must be a non-empty string');
const LLM_FIELDS: Record<string, Check> = {
  enabled: bool,
  decide: bool,
  provider: (v) => (v === 'anthropic' || v === 'openai' ? undefined : 'must be "anthropic" or "openai"'),
  model: str,
  baseUrl: (v) => (typeof v === 'string' && /^https?:\/\/\S+$/.test(v) ? undefined : 'must be an http(s) URL'),
  apiKeyEnv: (v) => (typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(v) ? undefined : 'must be an environment variable name'),
  timeoutMs: int(100, 60_000),
  smell: num(0, 1),
  confidence: num(0, 1),
};
const JUDGE_FIELDS: Record<string, Check> = { enabled: bool, threshold: num(0, 1), stopThreshold: num(0, 1), denyThreshold: num(0, 1.01) };

export interface ConfigProblem {
  source: string;
  field: string;
  problem: string;
}

/** Merges the valid fields of `raw` over `base`; returns the problems found in the others. */
export function mergeConfig(base: Config, raw: unknown, source: string): { config: Config; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    return { config: base, problems: [{ source, field: '(file)', problem: 'must be a JSON object' }] };
  }
  const next: Record<string, unknown> = { ...base, judge: { ...base.judge }, llm: { ...base.llm } };
  for (const [field, value] of Object.entries(raw as Record<string, unknown>)) {
    if (field === '$schema' || field === '//' || field.startsWith('_')) continue;
    const nested = field === 'judge' ? JUDGE_FIELDS : field === 'llm' ? LLM_FIELDS : undefined;
    if (nested) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        problems.push({ source, field, problem: 'must be an object' });
        continue;
      }
      // a provider given without the rest takes that provider's defaults
      if (field === 'llm' && (value as Record<string, unknown>).provider === 'openai') Object.assign(next.llm as object, { baseUrl: 'https://api.openai.com', apiKeyEnv: 'OPENAI_API_KEY', model: 'gpt-5-mini' });
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        const check = nested[k];
        const problem = check ? check(v) : 'is not a known setting';
        if (problem) problems.push({ source, field: `${field}.${k}`, problem });
        else (next[field] as Record<string, unknown>)[k] = v;
      }
      continue;
    }
    const check = FIELDS[field];
    const problem = check ? check(value) : 'is not a known setting';
    if (problem) problems.push({ source, field, problem });
    else next[field] = value;
  }
  return { config: next as unknown as Config, problems };
}
