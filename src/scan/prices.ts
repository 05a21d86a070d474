// What model tokens cost, in USD per million tokens, for the cost of a stall. There is no network at run
// time, so the table ships with stallguard; a model it does not list has its tokens counted and its cost
// reported as unknown, never guessed. Prices as published on PRICES_AS_OF, standard tier, on-demand
// (no batch discount), short-context band where a provider charges more above a prompt length (so a
// very long prompt is under-priced). Sources:
//   Anthropic: platform.claude.com/docs/en/about-claude/pricing (model table: base input, 5m and 1h
//     cache writes, cache hits, output) and the model overview pages (Sonnet 5, Sonnet 5.5).
//   OpenAI: developers.openai.com/api/docs/models (gpt-5-codex: $1.25 / $0.125 cached / $10) and the
//     per-model table in github/docs data/tables/copilot/models-and-pricing.yml (GPT-5.x), which also
//     lists the Anthropic and Google rates used here.
//   Google: the same github/docs table (Gemini 3.x). Gemini 2.5 Pro's $1.25 / $10 match the published
//     rates as quoted in the gemini-cost crate's tests; its $0.125 cache read and Gemini 2.5 Flash's
//     $0.30 / $2.50 / $0.03 are Google's rates as last published (ai.google.dev/gemini-api/docs/pricing),
//     not re-checked against a fetched page.
// OpenAI and Google bill no cache writes, so their cacheWrite is the input price.

export const PRICES_AS_OF = '2026-11-29';

export interface Price {
  input: number;
  output: number;
  /** Writing to a cache for five minutes (Anthropic); the input price where a provider does not bill writes. */
  cacheWrite: number;
  /** Writing to a cache for an hour (Anthropic). */
  cacheWrite1h?: number;
  cacheRead: number;
}

const anthropic = (input: number, output: number, cacheRead: number): Price => ({
  input,
  output,
  cacheWrite: input * 1.25,
  cacheWrite1h: input * 2,
  cacheRead,
});
const uncachedWrites = (input: number, output: number, cacheRead: number): Price => ({
  input,
  output,
  cacheWrite: input,
  cacheRead,
});

const OPUS_45 = anthropic(5, 25, 0.5);
const OPUS_4 = anthropic(15, 75, 1.5);
const SONNET_4 = anthropic(3, 15, 0.3);
const GPT_5 = uncachedWrites(1.25, 10, 0.125);
const GPT_52 = uncachedWrites(1.75, 14, 0.175);

const TABLE: Record<string, Price> = {
  'claude-fable-5-1': anthropic(10, 50, 0.25),
  'claude-fable-5': anthropic(10, 50, 1),
  'claude-opus-5': OPUS_45,
  'claude-opus-4-8': OPUS_45,
  'claude-opus-4-7': OPUS_45,
  'claude-opus-4-6': OPUS_45,
  'claude-opus-4-5': OPUS_45,
  'claude-opus-4-1': OPUS_4,
  'claude-opus-4-0': OPUS_4,
  'claude-opus-4': OPUS_4,
  'claude-3-opus': OPUS_4,
  'claude-sonnet-5-5': anthropic(2, 10, 0.2),
  'claude-sonnet-5': anthropic(2, 10, 0.2),
  'claude-sonnet-4-6': SONNET_4,
  'claude-sonnet-4-5': SONNET_4,
  'claude-sonnet-4-0': SONNET_4,
  'claude-sonnet-4': SONNET_4,
  'claude-3-7-sonnet': SONNET_4,
  'claude-3-5-sonnet': SONNET_4,
  'claude-haiku-4-5': anthropic(1, 5, 0.1),
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheWrite: 1, cacheWrite1h: 1.6, cacheRead: 0.08 },
  'claude-3-haiku': { input: 0.25, output: 1.25, cacheWrite: 0.3, cacheWrite1h: 0.5, cacheRead: 0.03 },
  'gpt-5': GPT_5,
  'gpt-5-codex': GPT_5,
  'gpt-5.1': GPT_5,
  'gpt-5.1-codex': GPT_5,
  'gpt-5-mini': uncachedWrites(0.25, 2, 0.025),
  'gpt-5.2': GPT_52,
  'gpt-5.2-codex': GPT_52,
  'gpt-5.3-codex': GPT_52,
  'gpt-5.4': uncachedWrites(2.5, 15, 0.25),
  'gpt-5.4-mini': uncachedWrites(0.75, 4.5, 0.075),
  'gpt-5.4-nano': uncachedWrites(0.2, 1.25, 0.02),
  'gpt-5.5': uncachedWrites(5, 30, 0.5),
  'gemini-3.1-pro': uncachedWrites(2, 12, 0.2),
  'gemini-3.5-flash': uncachedWrites(1.5, 9, 0.15),
  'gemini-2.5-pro': uncachedWrites(1.25, 10, 0.125),
  'gemini-2.5-flash': uncachedWrites(0.3, 2.5, 0.03),
};

/**
 * The table's name for a model id as agents write it: lower case, without a provider or region prefix
 * (`anthropic/`, `us.anthropic.`, `models/`), a dated snapshot suffix (`-20250929`, `-2025-08-07`,
 * `@20250805`, `-v1:0`), a context-size tag (`[1m]`) or a release-stage suffix (`-preview`, `-latest`).
 */
export function modelKey(model: string): string {
  return model
    .trim()
    .toLowerCase()
    .replace(/^(?:[a-z0-9-]+\/)+/, '')
    .replace(/^(?:(?:us|eu|apac|global)\.)?anthropic\./, '')
    .replace(/\[[^\]]*\]$/, '')
    .replace(/(?:-v\d+(?::\d+)?)$/, '')
    .replace(/(?:[-@]\d{8}|-\d{4}-\d{2}-\d{2})$/, '')
    .replace(/-(?:preview|latest|exp)(?:-\d{2}-\d{2})?$/, '');
}

/** Prices by model name as given: a scan looks up the same few names for every response. */
const looked = new Map<string, Price | undefined>();

export function priceOf(model: string | undefined): Price | undefined {
  if (!model) return undefined;
  if (looked.has(model)) return looked.get(model);
  // a history naming a new model in every line would grow the map without end
  if (looked.size >= 1024) looked.clear();
  const price = TABLE[modelKey(model)];
  looked.set(model, price);
  return price;
}
