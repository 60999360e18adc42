/**
 * Model usage per request, attributed to its source (main, fast, compaction, subagent N): the
 * `model_usage` table (migration 7), written as each reply comes back, so a killed run's spend is
 * still counted. A subagent's requests are rows of its own run and, tagged `subagent N`, of its
 * parent's: sums over the workspace count only runs without a parent, so nothing is counted twice.
 */
import type { SqlConn } from './sqlConn';

export interface UsageInput {
  runId: string;
  /** 'main', 'fast', 'compaction', 'subagent 1'... */
  source: string;
  role: string;
  model: string;
  promptTokens: number;
  completionTokens: number;
  cachedTokens?: number;
  /** null: the model has no known price. */
  costUsd: number | null;
  estimated?: boolean;
  time?: number;
}

export interface UsageRecordRow extends Required<UsageInput> {
  id: string;
}

/** Totals of one source (or one source on one day). */
export interface UsageTotalsView {
  source: string;
  requests: number;
  promptTokens: number;
  /** Of the prompt tokens, those the provider served from its prompt cache (as it reported them). */
  cachedTokens: number;
  completionTokens: number;
  /** USD of the priced requests; null when none was priced. */
  costUsd: number | null;
  unpricedRequests: number;
}

export interface UsageDayView {
  /** Local date, YYYY-MM-DD. */
  day: string;
  sources: UsageTotalsView[];
  totalTokens: number;
  costUsd: number | null;
}

export const USAGE_MIGRATION_SQL = `
      CREATE TABLE model_usage (
        id TEXT PRIMARY KEY, run_id TEXT NOT NULL, source TEXT NOT NULL, role TEXT NOT NULL, model TEXT NOT NULL,
        prompt_tokens INTEGER NOT NULL, completion_tokens INTEGER NOT NULL, cached_tokens INTEGER NOT NULL DEFAULT 0,
        cost_usd REAL, estimated INTEGER NOT NULL DEFAULT 0, time INTEGER NOT NULL
      );
      CREATE INDEX model_usage_run ON model_usage(run_id);
      CREATE INDEX model_usage_time ON model_usage(time);
`;

/** A stored row as the audit export writes it. */
export function usageFromRow(r: Record<string, unknown>): UsageRecordRow {
  return {
    id: String(r.id),
    runId: String(r.run_id),
    source: String(r.source),
    role: String(r.role),
    model: String(r.model),
    promptTokens: Number(r.prompt_tokens),
    completionTokens: Number(r.completion_tokens),
    cachedTokens: Number(r.cached_tokens),
    costUsd: r.cost_usd === null || r.cost_usd === undefined ? null : Number(r.cost_usd),
    estimated: Number(r.estimated) === 1,
    time: Number(r.time),
  };
}

export function insertUsage(conn: SqlConn, r: UsageRecordRow): number {
  return conn.run(
    `INSERT OR IGNORE INTO model_usage (id, run_id, source, role, model, prompt_tokens, completion_tokens, cached_tokens, cost_usd, estimated, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [r.id, r.runId, r.source, r.role, r.model, r.promptTokens, r.completionTokens, r.cachedTokens, r.costUsd, r.estimated ? 1 : 0, r.time],
  );
}

interface TotalsRow {
  source: string;
  requests: number;
  prompt: number;
  cached: number;
  completion: number;
  cost: number | null;
  unpriced: number;
}

const TOTALS = `source, count(*) AS requests, sum(prompt_tokens) AS prompt, sum(cached_tokens) AS cached, sum(completion_tokens) AS completion,
  sum(cost_usd) AS cost, sum(CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END) AS unpriced`;

const view = (r: TotalsRow): UsageTotalsView => ({
  source: r.source,
  requests: Number(r.requests),
  promptTokens: Number(r.prompt ?? 0),
  cachedTokens: Number(r.cached ?? 0),
  completionTokens: Number(r.completion ?? 0),
  costUsd: r.cost === null || r.cost === undefined ? null : Number(r.cost),
  unpricedRequests: Number(r.unpriced ?? 0),
});

/** A run's usage per source, in the order the sources first appeared. */
export function usageOfRun(conn: SqlConn, runId: string): UsageTotalsView[] {
  return conn
    .all<TotalsRow & { first: number }>(`SELECT ${TOTALS}, min(time) AS first FROM model_usage WHERE run_id = ? GROUP BY source ORDER BY first, source`, [
      runId,
    ])
    .map(view);
}

/**
 * USD the workspace spent since `since` (ms): the usage rows of runs without a parent, plus the
 * recorded cost of runs from before usage rows existed (they have none).
 */
export function costSince(conn: SqlConn, since: number): number {
  const rows = conn.get<{ c: number | null }>(
    `SELECT coalesce((SELECT sum(u.cost_usd) FROM model_usage u JOIN runs r ON r.id = u.run_id WHERE r.parent_run_id IS NULL AND u.time >= ?), 0)
      + coalesce((SELECT sum(cost_usd) FROM runs WHERE parent_run_id IS NULL AND started_at >= ? AND NOT EXISTS (SELECT 1 FROM model_usage u WHERE u.run_id = runs.id)), 0) AS c`,
    [since, since],
  );
  return Number(rows?.c ?? 0);
}

/** The local date of a time, YYYY-MM-DD. */
export function localDay(time: number): string {
  const d = new Date(time);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Midnight (local time) of the day `time` falls in. */
export function startOfLocalDay(time: number): number {
  const d = new Date(time);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

/** The workspace's usage per local day and source over the last `days` days (runs without a parent), newest day first. */
export function usageByDay(conn: SqlConn, days: number, now: number): UsageDayView[] {
  const since = startOfLocalDay(now - (days - 1) * 86_400_000);
  const rows = conn.all<{ time: number; source: string; prompt: number; cached: number; completion: number; cost: number | null }>(
    `SELECT u.time AS time, u.source AS source, u.prompt_tokens AS prompt, u.cached_tokens AS cached, u.completion_tokens AS completion, u.cost_usd AS cost
     FROM model_usage u JOIN runs r ON r.id = u.run_id WHERE r.parent_run_id IS NULL AND u.time >= ? ORDER BY u.time`,
    [since],
  );
  const byDay = new Map<string, Map<string, UsageTotalsView>>();
  for (const r of rows) {
    const day = localDay(Number(r.time));
    const sources = byDay.get(day) ?? new Map<string, UsageTotalsView>();
    byDay.set(day, sources);
    const t = sources.get(r.source) ?? {
      source: r.source,
      requests: 0,
      promptTokens: 0,
      cachedTokens: 0,
      completionTokens: 0,
      costUsd: null,
      unpricedRequests: 0,
    };
    t.requests++;
    t.promptTokens += Number(r.prompt);
    t.cachedTokens += Number(r.cached ?? 0);
    t.completionTokens += Number(r.completion);
    if (r.cost === null || r.cost === undefined) t.unpricedRequests++;
    else t.costUsd = (t.costUsd ?? 0) + Number(r.cost);
    sources.set(r.source, t);
  }
  return [...byDay.entries()]
    .sort((a, b) => (a[0] < b[0] ? 1 : -1))
    .map(([day, sources]) => {
      const list = [...sources.values()];
      const priced = list.filter((s) => s.costUsd !== null);
      return {
        day,
        sources: list,
        totalTokens: list.reduce((n, s) => n + s.promptTokens + s.completionTokens, 0),
        costUsd: priced.length ? priced.reduce((n, s) => n + s.costUsd!, 0) : null,
      };
    });
}
