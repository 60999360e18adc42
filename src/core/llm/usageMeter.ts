/**
 * Token and cost totals for a run (one meter per run), per model and overall. A total's cost covers
 * only priced requests; `unpricedRequests` says how many were left out, so "$0.12 + tokens" is honest.
 */
import type { ModelRole, ModelUsage } from './types';

export interface UsageTotals {
  requests: number;
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens read from the provider's prompt cache (part of promptTokens). */
  cachedTokens: number;
  /** Prompt tokens written to it (Anthropic's cache writes; part of promptTokens). */
  cacheWriteTokens: number;
  /** USD summed over priced requests; undefined when none was priced. */
  cost: number | undefined;
  /** Requests of models without a price (their tokens counted, their cost unknown). */
  unpricedRequests: number;
  /** Requests whose usage was estimated (the server sent none). */
  estimatedRequests: number;
}

export interface UsageRecord {
  role: ModelRole;
  model: string;
  usage: ModelUsage;
  cost: number | undefined;
}

function emptyTotals(): UsageTotals {
  return {
    requests: 0,
    promptTokens: 0,
    completionTokens: 0,
    cachedTokens: 0,
    cacheWriteTokens: 0,
    cost: undefined,
    unpricedRequests: 0,
    estimatedRequests: 0,
  };
}

function addTo(t: UsageTotals, r: UsageRecord): void {
  t.requests++;
  t.promptTokens += r.usage.promptTokens;
  t.completionTokens += r.usage.completionTokens;
  t.cachedTokens += r.usage.cachedTokens ?? 0;
  t.cacheWriteTokens += r.usage.cacheWriteTokens ?? 0;
  if (r.cost === undefined) t.unpricedRequests++;
  else t.cost = (t.cost ?? 0) + r.cost;
  if (r.usage.estimated) t.estimatedRequests++;
}

export class UsageMeter {
  private readonly records: UsageRecord[] = [];

  record(entry: UsageRecord): void {
    this.records.push({ ...entry, usage: { ...entry.usage } });
  }

  get requests(): readonly UsageRecord[] {
    return this.records;
  }

  total(): UsageTotals {
    const t = emptyTotals();
    for (const r of this.records) addTo(t, r);
    return t;
  }

  byModel(): Map<string, UsageTotals> {
    const out = new Map<string, UsageTotals>();
    for (const r of this.records) {
      const t = out.get(r.model) ?? emptyTotals();
      addTo(t, r);
      out.set(r.model, t);
    }
    return out;
  }
}
