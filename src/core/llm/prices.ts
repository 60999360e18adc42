/**
 * What a request cost, from per-model prices (USD per 1M tokens): the user's `patchpilot.llm.prices`
 * first, else the catalogs shipped as packages (catalogPrices.ts). A model without a price costs
 * `undefined`, never a guessed 0: the UI then shows tokens only.
 */
import { ModelConfigError } from './errors';
import { lookupByName } from './modelNames';
import type { ModelUsage } from './types';

/** Prices that apply instead when a request's prompt is longer than `abovePromptTokens` (long-context rates). */
export interface PriceTier {
  abovePromptTokens: number;
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
}

export interface ModelPrice {
  /** USD per 1M uncached prompt tokens. */
  input: number;
  /** USD per 1M prompt tokens read from the provider's cache; defaults to `input`. */
  cachedInput?: number;
  /** USD per 1M prompt tokens written to the provider's cache (Anthropic); defaults to `input`. */
  cacheWrite?: number;
  /** USD per 1M completion tokens (reasoning tokens included). */
  output: number;
  /** Long-context rates, by ascending threshold; the whole request is billed at the highest tier it passes. */
  tiers?: readonly PriceTier[];
}

export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * The price of `model` in a table (the user's setting) by the name rules of modelNames.ts: exact,
 * then without a router prefix (`openai/gpt-4o`), a date suffix, an Ollama tag. No looser
 * matching: `gpt-4o-audio-preview` is not priced like `gpt-4o`.
 */
export function lookupPrice(model: string, table: PriceTable): ModelPrice | undefined {
  return lookupByName(table, model);
}

/** USD for one request, or undefined when the model has no price. */
export function costOf(usage: ModelUsage, price: ModelPrice | undefined): number | undefined {
  if (!price) return undefined;
  const rates = [...(price.tiers ?? [])].reverse().find((t) => usage.promptTokens > t.abovePromptTokens) ?? price;
  const cached = Math.min(usage.cachedTokens ?? 0, usage.promptTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.promptTokens - cached);
  const uncached = usage.promptTokens - cached - written;
  const usd =
    (uncached * rates.input +
      cached * (rates.cachedInput ?? rates.input) +
      written * (rates.cacheWrite ?? rates.input) +
      usage.completionTokens * rates.output) /
    1_000_000;
  return usd;
}

function isPrice(n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n >= 0;
}

/**
 * Reads the `patchpilot.llm.prices` setting ({ "model": { "input": 2.5, "cachedInput": 1.25,
 * "output": 10 } }) into a table looked up before the catalog. Every bad entry is reported at once,
 * so a user fixes the setting in one go.
 */
export function priceTableFromSettings(value: unknown, base: PriceTable = {}): PriceTable {
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
