/**
 * Token and cost totals for a run (one meter per run), per model and overall. A total's cost covers
 * only priced requests; `unpricedRequests` says how many were left out, so "$0.12 + tokens" is honest.
 *
 * Each request is recorded with its source (main, fast, compaction, subagent N): `withSource()` gives
 * a view of the same meter that tags what it records. A subagent's meter forwards every request to
 * its parent's as it happens, so the parent's totals (and its budget, the guard) see it at once. The
 * guard (budget.ts) is asked before each request is sent (`admit`) and told after each one.
 */
import type { ModelPrice } from './prices';
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
  /** Who asked: 'main', 'fast', 'compaction', 'subagent 2'... (default: by role, 'main' or 'fast'). */
  source?: string;
  /** When the reply finished (ms since the epoch). */
  time?: number;
}

/** A request about to be sent: its prompt counted (estimated) and its model's price. */
export interface RequestEstimate {
  role: ModelRole;
  promptTokens: number;
  price: ModelPrice | undefined;
}

/** Watches a meter's totals: may refuse a request before it is sent (throws), and hears of each one after. */
export interface UsageGuard {
  admit(request: RequestEstimate, totals: UsageTotals): void;
  recorded(totals: UsageTotals): void;
}

export interface UsageMeterOptions {
  /** The parent run's meter (a view tagged 'subagent N'): every request recorded here is recorded there too. */
  forwardTo?: UsageMeter;
  guard?: UsageGuard;
  /** Each request as it is recorded (the history's usage rows). */
  onRecord?: (record: UsageRecord) => void;
}

interface MeterCore {
  records: UsageRecord[];
  options: UsageMeterOptions;
}

/** The source a request is shown under when nobody tagged it. */
export function sourceOf(r: Pick<UsageRecord, 'role' | 'source'>): string {
  return r.source ?? (r.role === 'fast' ? 'fast' : 'main');
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
  private readonly core: MeterCore;

  constructor(
    options: UsageMeterOptions = {},
    private readonly source?: string,
    core?: MeterCore,
  ) {
    this.core = core ?? { records: [], options };
  }

  /** The same meter, recording under `source` what arrives untagged. */
  withSource(source: string): UsageMeter {
    return new UsageMeter({}, source, this.core);
  }

  record(entry: UsageRecord): void {
    const { records, options } = this.core;
    const r: UsageRecord = { ...entry, usage: { ...entry.usage }, source: entry.source ?? this.source ?? sourceOf(entry), time: entry.time ?? Date.now() };
    records.push(r);
    options.onRecord?.(r);
    // The parent's view is tagged 'subagent N': what the child called 'main' or 'fast' is the subagent's there.
    options.forwardTo?.record({ ...r, source: undefined });
    options.guard?.recorded(this.total());
  }

  /** Before a request is sent: the guard of the root meter (a subagent's asks its parent's) may refuse it by throwing. */
  admit(request: RequestEstimate): void {
    const { options } = this.core;
    if (options.forwardTo) options.forwardTo.admit(request);
    else options.guard?.admit(request, this.total());
  }

  get requests(): readonly UsageRecord[] {
    return this.core.records;
  }

  total(): UsageTotals {
    const t = emptyTotals();
    for (const r of this.core.records) addTo(t, r);
    return t;
  }

  byModel(): Map<string, UsageTotals> {
    const out = new Map<string, UsageTotals>();
    for (const r of this.core.records) {
      const t = out.get(r.model) ?? emptyTotals();
      addTo(t, r);
      out.set(r.model, t);
    }
    return out;
  }
}

/** Totals per source ('main', 'fast', 'compaction', 'subagent 1'...), in the order each first appeared. */
export function totalsBySource(records: readonly UsageRecord[]): Map<string, UsageTotals> {
  const out = new Map<string, UsageTotals>();
  for (const r of records) {
    const key = sourceOf(r);
    const t = out.get(key) ?? emptyTotals();
    addTo(t, r);
    out.set(key, t);
  }
  return out;
}
