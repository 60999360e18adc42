/**
 * Full-text search over observations and Q&A summaries: FTS4 MATCH for candidates, BM25 for order.
 *
 * User text never reaches MATCH as syntax. It is split into word tokens (letters and digits, as
 * the unicode61 tokenizer does), each token is quoted, and tokens are joined with OR, so quotes,
 * `*`, `-`, NEAR, AND/OR/NOT and unbalanced parentheses are searched as plain words and cannot throw
 * "malformed MATCH expression". OR (not AND) because BM25 already ranks rows that contain more of
 * the terms first; a missing word should lower a row, not hide it.
 *
 * Which matching rows get scored is planned first (searchPlan.ts): words found in a large share of
 * the rows would otherwise make one query score most of the table.
 */
import type { SqlConn } from './sqlConn';
import type { ObservationRecord } from './types';
import type { SearchHit, SearchOptions } from './searchTypes';
import { observationFromRow, type ObservationRow } from './rows';
import { documentFrequency, observationCount, planSearch, type SearchPlan } from './searchPlan';

const MAX_TERMS = 32;
const DAY_MS = 86_400_000;

/** The distinct lower-case word tokens of a query (letters and digits, as unicode61 splits them). */
function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, MAX_TERMS);
}

const orOf = (terms: readonly string[]) => terms.map((w) => `"${w}"`).join(' OR ');

/** The safe MATCH expression for a user query, or undefined when it has no searchable word. */
export function toMatchExpression(query: string): string | undefined {
  const terms = queryTerms(query);
  return terms.length === 0 ? undefined : orOf(terms);
}

// CROSS JOIN keeps the FTS table as the outer loop (SQLite never reorders it), so the filters on
// observations run before the score column is computed, and a docid order is the index's own.
const SCORED = `SELECT o.*, bm25(matchinfo(observations_fts, 'pcnalx')) AS score
  FROM observations_fts CROSS JOIN observations o ON o.n = observations_fts.docid
  WHERE observations_fts MATCH ? AND (? IS NULL OR o.time >= ?) AND (? IS NULL OR o.type = ?)`;

/** The statement for each plan (searchPlan.ts says which rows each one scores, and why). */
function statement(plan: SearchPlan): string {
  switch (plan.kind) {
    case 'all':
      return `${SCORED} ORDER BY score DESC, o.time DESC LIMIT ?`;
    case 'selective':
      // The unary + keeps this a per-row filter: as an index constraint it would displace the MATCH.
      return `${SCORED} AND +observations_fts.docid IN (SELECT docid FROM observations_fts WHERE observations_fts MATCH ?)
        ORDER BY score DESC, o.time DESC LIMIT ?`;
    case 'recent':
      return `SELECT * FROM (${SCORED} ORDER BY observations_fts.docid DESC LIMIT ?) ORDER BY score DESC, time DESC LIMIT ?`;
  }
}

export function searchObservations(conn: SqlConn, query: string, options: SearchOptions, now: number): SearchHit[] {
  const terms = queryTerms(query);
  if (terms.length === 0) return [];
  const limit = clampLimit(options.limit ?? 20);
  const since = options.days !== undefined && options.days >= 0 ? now - options.days * DAY_MS : null;
  const type = options.type ?? null;
  const plan = planSearch(terms, (t) => documentFrequency(conn, t), observationCount(conn));
  const planParams = plan.kind === 'selective' ? [orOf(plan.selective)] : plan.kind === 'recent' ? [plan.newest] : [];
  const rows = conn.all<ObservationRow & { score: number }>(statement(plan), [orOf(terms), since, since, type, type, ...planParams, limit]);
  return rows.map((r) => ({ ...observationFromRow(r), score: r.score }));
}

/** The naive alternative (for the benchmark): LIKE over every row, newest first, no ranking. */
export function likeScan(conn: SqlConn, query: string, limit: number): ObservationRecord[] {
  const words = queryTerms(query);
  if (words.length === 0) return [];
  const where = words.map(() => `(text LIKE ? OR detail LIKE ?)`).join(' OR ');
  const params = words.flatMap((w) => [`%${w}%`, `%${w}%`]);
  return conn.all<ObservationRow>(`SELECT * FROM observations WHERE ${where} ORDER BY time DESC LIMIT ?`, [...params, limit]).map(observationFromRow);
}

function clampLimit(limit: number): number {
  if (!Number.isFinite(limit) || limit < 1) return 20;
  return Math.min(Math.floor(limit), 1000);
}
