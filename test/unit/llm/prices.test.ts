import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { catalogPrice } from '../../../src/core/llm/catalogPrices';
import { costOf, formatCost, lookupPrice, priceTableFromSettings } from '../../../src/core/llm/prices';
import { ModelConfigError } from '../../../src/core/llm/errors';
import type { ModelUsage } from '../../../src/core/llm/types';

const usage = (promptTokens: number, completionTokens: number, cachedTokens?: number): ModelUsage => ({
  promptTokens,
  completionTokens,
  ...(cachedTokens !== undefined ? { cachedTokens } : {}),
  estimated: false,
});

describe("price lookup in the user's table: by the name rules, never looser", () => {
  const table = { 'gpt-4o': { input: 1, output: 2 }, 'claude-sonnet-4': { input: 3, output: 15 }, 'qwen3-32b': { input: 0, output: 0 } };
  const cases: [string, keyof typeof table | undefined][] = [
    ['gpt-4o', 'gpt-4o'],
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['openai/gpt-4o', 'gpt-4o'],
    ['anthropic/claude-sonnet-4', 'claude-sonnet-4'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4'],
    ['qwen3:32b', 'qwen3-32b'],
    ['gpt-4o-audio-preview', undefined],
    ['scripted-model', undefined],
    ['toString', undefined],
  ];
  for (const [model, expected] of cases) {
    test(`${model} -> ${expected ?? 'no price'}`, () => {
      assert.equal(lookupPrice(model, table), expected ? table[expected] : undefined);
    });
  }
});

describe('prices from the catalog packages', () => {
  test('a well-known model has list prices with a cheaper cached input', () => {
    const p = catalogPrice('gpt-4o');
    assert.ok(p && p.input > 0 && p.output > p.input, JSON.stringify(p));
    assert.ok(p.cachedInput !== undefined && p.cachedInput < p.input);
  });

  test('router prefixes and dates find the same model', () => {
    assert.deepEqual(catalogPrice('gpt-4o-2024-08-06'), catalogPrice('gpt-4o'));
    assert.ok(catalogPrice('openai/gpt-4o'));
  });

  test('Anthropic: cache writes priced, long-context tier above 200k prompt tokens', () => {
    const p = catalogPrice('claude-sonnet-4-5');
    assert.ok(p?.cacheWrite && p.cacheWrite > p.input);
    const short = costOf(usage(100_000, 0), p)!;
    const long = costOf(usage(300_000, 0), p)!;
    assert.ok(long / 300_000 > short / 100_000, 'the long prompt is billed at the higher rate');
  });

  test('an unknown model: no price (tokens only)', () => {
    assert.equal(catalogPrice('scripted-model'), undefined);
    assert.equal(catalogPrice('toString'), undefined);
  });
});

describe('costOf', () => {
  test('uncached input, cached input and output at their own rates', () => {
    const price = { input: 2, cachedInput: 0.5, output: 8 };
    // 700k uncached * 2 + 300k cached * 0.5 + 100k out * 8 = 1.4 + 0.15 + 0.8
    assert.ok(Math.abs(costOf(usage(1_000_000, 100_000, 300_000), price)! - 2.35) < 1e-12);
  });

  test('cached input without a cached price is billed as input', () => {
    assert.equal(costOf(usage(1_000_000, 0, 500_000), { input: 1, output: 1 }), 1);
  });

  test('cached tokens above prompt tokens (a server bug) never make the cost negative', () => {
    assert.equal(costOf(usage(100, 0, 500), { input: 1, cachedInput: 0, output: 1 }), 0);
  });

  test('cache writes at their own rate, and the rest of the prompt as input', () => {
    const u: ModelUsage = { promptTokens: 1_000_000, completionTokens: 0, cachedTokens: 200_000, cacheWriteTokens: 300_000, estimated: false };
    // 500k * 3 + 200k * 0.3 + 300k * 3.75 = 1.5 + 0.06 + 1.125
    assert.ok(Math.abs(costOf(u, { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 })! - 2.685) < 1e-12);
  });

  test('unknown price: undefined, not 0', () => {
    assert.equal(costOf(usage(10, 10), undefined), undefined);
  });

  test('formatCost', () => {
    assert.equal(formatCost(undefined), undefined);
    assert.equal(formatCost(0.01234), '$0.0123');
    assert.equal(formatCost(12.345), '$12.35');
  });
});

describe('patchpilot.llm.prices setting', () => {
  test('reads every model, cache prices included', () => {
    const table = priceTableFromSettings({ 'gpt-4o': { input: 1, output: 2 }, 'qwen-local': { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 } });
    assert.deepEqual(table['gpt-4o'], { input: 1, output: 2 });
    assert.deepEqual(table['qwen-local'], { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 });
  });

  test('absent setting: an empty table (the catalog answers)', () => {
    assert.deepEqual(priceTableFromSettings(undefined), {});
  });

  test('reports every bad entry at once', () => {
    try {
      priceTableFromSettings({
        a: { input: -1, output: 2 },
        b: 'cheap',
        c: { input: 1, output: 2, cachedInput: 'x' },
        d: { input: 1, output: 2, currency: 'EUR' },
      });
      assert.fail('expected an error');
    } catch (err) {
      assert.ok(err instanceof ModelConfigError);
      assert.deepEqual(err.problems, [
        'prices["a"].input must be a number >= 0 (USD per 1M tokens)',
        'prices["b"] must be an object like {"input": 2.5, "output": 10}',
        'prices["c"].cachedInput must be a number >= 0 (USD per 1M tokens)',
        'prices["d"] has unknown keys: currency',
      ]);
    }
  });

  test('not an object at all', () => {
    assert.throws(() => priceTableFromSettings([1, 2]), /must be an object mapping model names to prices/);
  });
});
