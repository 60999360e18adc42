/**
 * Full-text search over observations and Q&A summaries: FTS4 MATCH for candidates, BM25 for order.
 *
 * User text never reaches MATCH as syntax. It is split into word tokens (letters and digits, as
 * the unicode61 tokenizer does), each token is quoted, and tokens are joined with OR, so quotes,
 * `*`, `-`, NEAR, AND/OR/NOT and unbalanced parentheses are searched as plain words and cannot throw
 * "malformed MATCH expression". OR (not AND) because BM25 already ranks rows that contain more of
 * the terms first; a missing word should lower a row, not hide it.
 */
import type { SqlConn } from './sqlConn';
import type { ObservationRecord, SearchHit, SearchOptions } from './types';
import { observationFromRow, type ObservationRow } from './rows';

const MAX_TERMS = 32;
const DAY_MS = 86_400_000;

/** The safe MATCH expression for a user query, or undefined when it has no searchable word. */
export function toMatchExpression(query: string): string | undefined {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const unique = [...new Set(words)].slice(0, MAX_TERMS);
  if (unique.length === 0) return undefined;
  return unique.map((w) => `"${w}"`).join(' OR ');
}

export function searchObservations(conn: SqlConn, query: string, options: SearchOptions, now: number): SearchHit[] {
  const match = toMatchExpression(query);
  if (!match) return [];
  const limit = clampLimit(options.limit ?? 20);
  const since = options.days !== undefined && options.days >= 0 ? now - options.days * DAY_MS : null;
  const rows = conn.all<ObservationRow & { score: number }>(
    `SELECT o.*, s.score AS score FROM (
       SELECT docid, bm25(matchinfo(observations_fts, 'pcnalx')) AS score
       FROM observations_fts WHERE observations_fts MATCH ?
     ) s JOIN observations o ON o.n = s.docid
     WHERE (? IS NULL OR o.time >= ?) AND (? IS NULL OR o.type = ?)
     ORDER BY s.score DESC, o.time DESC LIMIT ?`,
    [match, since, since, options.type ?? null, options.type ?? null, limit],
  );
  return rows.map((r) => ({ ...observationFromRow(r), score: r.score }));
}

/** The naive alternative (for the benchmark): LIKE over every row, newest first, no ranking. */
export function likeScan(conn: SqlConn, query: string, limit: number): ObservationRecord[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return [];
  const where = words.map(() => `(text LIKE ? OR detail LIKE ?)`).join(' OR ');
  const params = words.flatMap((w) => [`%${w}%`, `%${w}%`]);
  return conn
    .all<ObservationRow>(`SELECT * FROM observations WHERE ${where} ORDER BY time DESC LIMIT ?`, [...params, limit])
    .map(observationFromRow);
}

function clampLimit(limit: number): number {
  if (!Number.isFinite(limit) || limit < 1) return 20;
  return Math.min(Math.floor(limit), 1000);
}
