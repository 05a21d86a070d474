import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { modelKey, priceOf } from './prices.ts';
import { knownUsd, spendOf } from './spend.ts';

describe('the price table', () => {
  it('finds a model under the names agents and clouds give it', () => {
    const cases: [string, string][] = [
      ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'],
      ['claude-opus-4-20250514', 'claude-opus-4'],
      ['claude-opus-4-6[1m]', 'claude-opus-4-6'],
      ['us.anthropic.claude-sonnet-4-20250514-v1:0', 'claude-sonnet-4'],
      ['claude-opus-4-1@20250805', 'claude-opus-4-1'],
      ['anthropic/claude-haiku-4-5', 'claude-haiku-4-5'],
      ['gpt-5-2025-08-07', 'gpt-5'],
      ['gemini-3.1-pro-preview', 'gemini-3.1-pro'],
      ['models/gemini-2.5-flash', 'gemini-2.5-flash'],
    ];
    for (const [id, key] of cases) assert.equal(modelKey(id), key, id);
  });

  it('does not guess: a model it does not list has no price, even when a relative does', () => {
    assert.equal(priceOf('claude-opus-9'), undefined);
    assert.equal(priceOf('<synthetic>'), undefined);
    assert.equal(priceOf(undefined), undefined);
    assert.notEqual(
      priceOf('claude-opus-4-1')!.input,
      priceOf('claude-opus-4-5')!.input,
      'Opus 4.5 costs a third of Opus 4.1',
    );
  });

  it('prices each kind of token at its rate, one-hour cache writes at theirs', () => {
    // Opus 4.6: $5 input, $25 output, $6.25 5m write, $10 1h write, $0.50 cache read (per million)
    const s = spendOf({
      model: 'claude-opus-4-6',
      tokens: { input: 1e6, output: 1e6, cacheWrite: 2e6, cacheRead: 1e6 },
      cacheWrite1h: 1e6,
    });
    assert.equal(s.usd, 5 + 25 + 6.25 + 10 + 0.5);
    assert.equal(
      knownUsd(spendOf({ model: 'mystery', tokens: { input: 10, output: 0, cacheWrite: 0, cacheRead: 0 } })),
      null,
    );
  });
});
