import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  costOf,
  defaultPrices,
  formatCost,
  lookupPrice,
  priceTableFromSettings,
} from '../../../src/core/llm/prices';
import { ModelConfigError } from '../../../src/core/llm/errors';
import type { ModelUsage } from '../../../src/core/llm/types';

const usage = (promptTokens: number, completionTokens: number, cachedTokens?: number): ModelUsage => ({
  promptTokens,
  completionTokens,
  ...(cachedTokens !== undefined ? { cachedTokens } : {}),
  estimated: false,
});

describe('price lookup', () => {
  const cases: [string, string | undefined][] = [
    ['gpt-4o', 'gpt-4o'],
    ['gpt-4o-mini', 'gpt-4o-mini'],
    ['gpt-4o-2024-08-06', 'gpt-4o'],
    ['openai/gpt-4o-mini', 'gpt-4o-mini'],
    ['anthropic/claude-sonnet-4', 'claude-sonnet-4'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4'],
    ['gpt-4o-audio-preview', undefined],
    ['llama3.1:8b', undefined],
    ['scripted-model', undefined],
    ['toString', undefined],
  ];
  for (const [model, expected] of cases) {
    test(`${model} -> ${expected ?? 'no price'}`, () => {
      assert.equal(lookupPrice(model, defaultPrices), expected ? defaultPrices[expected] : undefined);
    });
  }
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
  test('overrides a default and adds a model, keeping the rest', () => {
    const table = priceTableFromSettings({ 'gpt-4o': { input: 1, output: 2 }, 'qwen-local': { input: 0, output: 0 } });
    assert.deepEqual(table['gpt-4o'], { input: 1, output: 2 });
    assert.deepEqual(table['qwen-local'], { input: 0, output: 0 });
    assert.deepEqual(table['gpt-4o-mini'], defaultPrices['gpt-4o-mini']);
  });

  test('absent setting: the defaults', () => {
    assert.equal(priceTableFromSettings(undefined), defaultPrices);
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
