/**
 * What a request cost, from a per-model price table (USD per 1M tokens). A model without a price
 * costs `undefined`, never a guessed 0: the UI then shows tokens only.
 */
import { ModelConfigError } from './errors';
import type { ModelUsage } from './types';

export interface ModelPrice {
  /** USD per 1M uncached prompt tokens. */
  input: number;
  /** USD per 1M prompt tokens read from the provider's cache; defaults to `input`. */
  cachedInput?: number;
  /** USD per 1M prompt tokens written to the provider's cache (Anthropic: 1.25x input); defaults to `input`. */
  cacheWrite?: number;
  /** USD per 1M completion tokens (reasoning tokens included). */
  output: number;
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * List prices of a few well-known models as published when this was written. Prices change: the
 * setting `patchpilot.llm.prices` overrides or extends this table per model name.
 */
export const defaultPrices: PriceTable = {
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'claude-sonnet-4': { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 },
  'claude-opus-4': { input: 15, cachedInput: 1.5, cacheWrite: 18.75, output: 75 },
};

/**
 * The price of `model`: the exact name first, then without a router prefix (`openai/gpt-4o`), then
 * without a date suffix (`gpt-4o-2024-08-06`). No looser matching: `gpt-4o-audio-preview` is not
 * priced like `gpt-4o`.
 */
export function lookupPrice(model: string, table: PriceTable): ModelPrice | undefined {
  const candidates = new Set<string>();
  const add = (name: string) => {
    candidates.add(name);
    candidates.add(name.replace(/-(\d{4}-\d{2}-\d{2}|\d{8})$/, ''));
  };
  add(model);
  const slash = model.lastIndexOf('/');
  if (slash >= 0) add(model.slice(slash + 1));
  for (const name of candidates) {
    if (Object.prototype.hasOwnProperty.call(table, name)) return table[name];
  }
  return undefined;
}

/** USD for one request, or undefined when the model has no price. */
export function costOf(usage: ModelUsage, price: ModelPrice | undefined): number | undefined {
  if (!price) return undefined;
  const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - cached);
  const uncached = usage.promptTokens - cached - written;
  const usd =
    (uncached * price.input +
      cached * (price.cachedInput ?? price.input) +
      written * (price.cacheWrite ?? price.input) +
      usage.completionTokens * price.output) /
    1_000_000;
  return usd;
}

function isPrice(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

/**
 * Reads the `patchpilot.llm.prices` setting ({ "model": { "input": 2.5, "cachedInput": 1.25,
 * "output": 10 } }) and returns the default table with those entries on top. Every bad entry is
 * reported at once, so a user fixes the setting in one go.
 */
export function priceTableFromSettings(value: unknown, base: PriceTable = defaultPrices): PriceTable {
  if (value === undefined || value === null) return base;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new ModelConfigError(['patchpilot.llm.prices must be an object mapping model names to prices']);
  }
  const problems: string[] = [];
  const table: Record<string, ModelPrice> = { ...base };
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    const e = entry as Record<string, unknown> | null;
    if (!e || typeof e !== 'object' || Array.isArray(e)) {
      problems.push(`prices["${model}"] must be an object like {"input": 2.5, "output": 10}`);
      continue;
    }
    const bad = ['input', 'output'].filter((k) => !isPrice(e[k]));
    for (const k of ['cachedInput', 'cacheWrite']) if (e[k] !== undefined && !isPrice(e[k])) bad.push(k);
    const unknownKeys = Object.keys(e).filter((k) => !['input', 'output', 'cachedInput', 'cacheWrite'].includes(k));
    if (bad.length) problems.push(`prices["${model}"].${bad.join(', .')} must be a number >= 0 (USD per 1M tokens)`);
    if (unknownKeys.length) problems.push(`prices["${model}"] has unknown keys: ${unknownKeys.join(', ')}`);
    if (bad.length || unknownKeys.length) continue;
    table[model] = {
      input: e.input as number,
      output: e.output as number,
      ...(e.cachedInput !== undefined ? { cachedInput: e.cachedInput as number } : {}),
      ...(e.cacheWrite !== undefined ? { cacheWrite: e.cacheWrite as number } : {}),
    };
  }
  if (problems.length) throw new ModelConfigError(problems);
  return table;
}

/** "$0.0123" for the UI; tokens-only callers print nothing when cost is undefined. */
export function formatCost(usd: number | undefined): string | undefined {
  if (usd === undefined) return undefined;
  return usd >= 1 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}
