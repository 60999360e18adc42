/**
 * BM25 search over everything the history holds, for the history panel: runs' goals, steps
 * (messages, tool calls and results), policy decisions, patches, test runs, observations and Q&A.
 *
 * Each table has its own FTS4 index (schema.ts, migrations 2 and 4); each index is asked the same
 * way search.ts asks the observations' one (quoted words joined with OR, so user text is never MATCH
 * syntax; searchPlan.ts decides which rows get scored when a word is everywhere), within the time
 * range, and the best hits of all of them are merged by score. BM25's idf and length terms are per
 * index, so scores compare exactly within one source and roughly across sources, which is enough to
 * interleave "the goal said parser" with "a tool result said parser".
 */
import type { SqlConn } from './sqlConn';
import { documentFrequency, planSearch, type SearchPlan } from './searchPlan';
import { matchRanges, queryTerms, snippetAround, type QueryTerm } from '../../protocol/historyMatch';
import { EARLIER_STEP, REASONING_STEP, TRANSCRIPT_STEP } from './types';
import {
  HISTORY_SEARCH_TYPES,
  type HistoryHit,
  type HistoryHitKind,
  type HistorySearchOptions,
  type HistorySearchResult,
  type HistorySearchType,
} from './searchTypes';

type Row = Record<string, unknown>;

interface Source {
  type: HistorySearchType;
  table: string;
  fts: string;
  /** The column the time filter applies to. */
  time: string;
  /** The text columns in the order a snippet looks for a match. */
  fields: string[];
  kind(row: Row): HistoryHitKind;
  title(row: Row): string;
  runId(row: Row): string | null;
  /** Rows of the table that are indexed but are no search results, as an SQL condition on `s.`. */
  exclude?: string;
}

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const short = (s: string, max = 80) => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

const SOURCES: readonly Source[] = [
  { type: 'runs', table: 'runs', fts: 'runs_fts', time: 'started_at', fields: ['goal'], kind: () => 'run', title: () => 'Goal', runId: (r) => str(r.id) },
  {
    type: 'runs',
    table: 'steps',
    fts: 'steps_fts',
    time: 'time',
    fields: ['text', 'result', 'arguments', 'tool'],
    kind: () => 'step',
    // The conversation copies a run keeps for a follow-up (orchestrator/contextSteps.ts): JSON of
    // messages found as steps already; and the model's reasoning (long, and not what a search of
    // what happened looks for). Filtered here, not left out of the index: an external-content
    // FTS4 index must mirror its table, or SQLite's integrity check calls the file damaged.
    exclude: `s.role = 'system' AND s.tool IN ('${TRANSCRIPT_STEP}', '${EARLIER_STEP}', '${REASONING_STEP}')`,
    title: (r) =>
      r.tool
        ? `${str(r.tool)} ${r.role === 'tool' ? 'call' : str(r.role)}`
        : r.role === 'user'
          ? 'User message'
          : r.role === 'assistant'
            ? 'Model message'
            : `${str(r.role)} message`,
    runId: (r) => str(r.run_id) || null,
  },
  {
    type: 'runs',
    table: 'policy_decisions',
    fts: 'policy_decisions_fts',
    time: 'time',
    fields: ['subject', 'reason', 'rule'],
    kind: () => 'policy',
    title: (r) => `Policy: ${str(r.verdict)} ${str(r.kind)}`,
    runId: (r) => str(r.run_id) || null,
  },
  {
    type: 'observations',
    table: 'observations',
    fts: 'observations_fts',
    time: 'time',
    fields: ['text', 'detail', 'path'],
    kind: (r) => (r.type === 'qa' ? 'qa' : 'observation'),
    title: (r) => (r.type === 'qa' ? 'Q&A summary' : `Observation${r.tool ? ` from ${str(r.tool)}` : ''}`),
    runId: (r) => str(r.run_id) || null,
  },
  {
    type: 'patches',
    table: 'patches',
    fts: 'patches_fts',
    time: 'time',
    fields: ['text', 'rejected_hunks', 'files'],
    kind: () => 'patch',
    title: (r) => `Patch to ${short(filesOf(r.files))}`,
    runId: (r) => str(r.run_id) || null,
  },
  {
    type: 'tests',
    table: 'test_runs',
    fts: 'test_runs_fts',
    time: 'time',
    fields: ['output_tail', 'command'],
    kind: () => 'test',
    title: (r) => `Tests: ${short(str(r.command), 60)} (exit ${r.exit_code === null ? 'none' : str(r.exit_code)})`,
    runId: (r) => str(r.run_id) || null,
  },
];

function filesOf(json: unknown): string {
  try {
    const v = JSON.parse(str(json)) as unknown;
    return Array.isArray(v) ? v.map(String).join(', ') : str(json);
  } catch {
    return str(json);
  }
}

const phrase = (t: QueryTerm) => `"${t.text}${t.prefix ? '*' : ''}"`;
const orOf = (terms: readonly QueryTerm[]) => terms.map(phrase).join(' OR ');

/**
 * The ranking reads only docid, score and time (the join reads the row's time only when a time
 * filter asks for it); the rows' text columns are fetched for the kept ones alone, so the sort never
 * carries a tool result of every matching row.
 */
function statement(s: Source, plan: SearchPlan, timeFilter: boolean): string {
  const join = timeFilter ? `CROSS JOIN ${s.table} f ON f.rowid = ${s.fts}.docid` : '';
  const when = timeFilter ? `AND (? IS NULL OR f.${s.time} >= ?) AND (? IS NULL OR f.${s.time} < ?)` : '';
  const scored = `SELECT ${s.fts}.docid AS docid, bm25(matchinfo(${s.fts}, 'pcnalx')) AS score FROM ${s.fts} ${join} WHERE ${s.fts} MATCH ? ${when}`;
  let ranked: string;
  switch (plan.kind) {
    case 'all':
      ranked = `${scored} ORDER BY score DESC, docid DESC LIMIT ?`;
      break;
    case 'selective':
      // The unary + keeps this a per-row filter: as an index constraint it would displace the MATCH.
      ranked = `${scored} AND +${s.fts}.docid IN (SELECT docid FROM ${s.fts} WHERE ${s.fts} MATCH ?) ORDER BY score DESC, docid DESC LIMIT ?`;
      break;
    case 'recent':
      ranked = `SELECT * FROM (${scored} ORDER BY ${s.fts}.docid DESC LIMIT ?) ORDER BY score DESC, docid DESC LIMIT ?`;
      break;
  }
  const keep = s.exclude ? `WHERE NOT (${s.exclude})` : '';
  return `SELECT s.*, top.score AS score FROM (${ranked}) top CROSS JOIN ${s.table} s ON s.rowid = top.docid ${keep} ORDER BY top.score DESC, top.docid DESC`;
}

/** A word being typed matches longer words only from this length, and only while it stands for few words and rows. */
export const MIN_PREFIX_CHARS = 3;
export const MAX_PREFIX_TERMS = 64;
export const MAX_PREFIX_POSTINGS = 20_000;

interface SourceRows {
  source: Source;
  /** The terms as this index was asked (a prefix that stands for too much is asked as a whole word). */
  terms: QueryTerm[];
  rows: Array<Row & { score: number }>;
}

/**
 * FTS4 without a prefix index merges the doclists of every word a prefix stands for: "w*" over a
 * big vocabulary reads most of the index. So a prefix is used only when it is at least
 * MIN_PREFIX_CHARS long and stands for at most MAX_PREFIX_TERMS words and MAX_PREFIX_POSTINGS
 * (word, row) pairs in this index (both read from fts4aux, which is cheap); otherwise it is searched
 * as the whole word typed so far, and the full word finds its rows once typed.
 */
function effectiveTerms(conn: SqlConn, s: Source, terms: QueryTerm[]): QueryTerm[] {
  return terms.map((t) => {
    if (!t.prefix) return t;
    if (t.text.length < MIN_PREFIX_CHARS) return { text: t.text, prefix: false };
    const range = prefixRange(conn, s.fts, t.text);
    return range.terms > MAX_PREFIX_TERMS || range.postings > MAX_PREFIX_POSTINGS ? { text: t.text, prefix: false } : t;
  });
}

function prefixRange(conn: SqlConn, fts: string, prefix: string): { terms: number; postings: number } {
  documentFrequency(conn, prefix, fts); // creates the fts4aux table on first use
  const r = conn.get<{ n: number; d: number }>(
    `SELECT count(*) AS n, coalesce(sum(documents), 0) AS d FROM temp.${fts}_terms WHERE term >= ? AND term < ? AND col = '*'`,
    [prefix, `${prefix}\u{10FFFF}`],
  );
  return { terms: Number(r?.n ?? 0), postings: Number(r?.d ?? 0) };
}

function searchSource(conn: SqlConn, s: Source, queryTerms: QueryTerm[], since: number | null, until: number | null, limit: number): SourceRows {
  const terms = effectiveTerms(conn, s, queryTerms);
  const key = (t: QueryTerm) => `${t.text}${t.prefix ? '*' : ''}`;
  const plan = planSearch(terms.map(key), (k) => documentFrequency(conn, k.replace(/\*$/, ''), s.fts, k.endsWith('*')), approxRowCount(conn, s.table));
  const planParams = plan.kind === 'selective' ? [orOf(terms.filter((t) => plan.selective.includes(key(t))))] : plan.kind === 'recent' ? [plan.newest] : [];
  const timeFilter = since !== null || until !== null;
  // A source that filters rows after ranking asks for more, so the filter rarely leaves it short (a run has at most two copies).
  const asked = s.exclude ? Math.min(limit * 2, 1000) : limit;
  const rows = conn.all<Row & { score: number }>(statement(s, plan, timeFilter), [
    orOf(terms),
    ...(timeFilter ? [since, since, until, until] : []),
    ...planParams,
    asked,
  ]);
  return { source: s, terms, rows };
}

/** max(rowid): O(log n) where count(*) reads the table; deleted rows make it high, which only makes the plan more careful. */
function approxRowCount(conn: SqlConn, table: string): number {
  return Number(conn.get<{ n: number }>(`SELECT coalesce(max(rowid), 0) AS n FROM ${table}`)?.n ?? 0);
}

function hitOf(s: Source, terms: QueryTerm[], r: Row & { score: number }): HistoryHit {
  const texts = s.fields.map((f) => (f === 'files' ? filesOf(r[f]) : str(r[f])));
  const text = texts.find((t) => matchRanges(t, terms, 1).length > 0) ?? texts.find((t) => t) ?? '';
  const snippet = snippetAround(text, terms);
  return {
    kind: s.kind(r),
    id: str(r.id),
    runId: s.runId(r),
    runGoal: null,
    time: Number(r[s.time]),
    title: s.title(r),
    snippet: snippet.text,
    ranges: snippet.ranges,
    score: r.score,
  };
}

export function searchHistory(conn: SqlConn, query: string, options: HistorySearchOptions = {}): HistorySearchResult {
  const terms = queryTerms(typeof query === 'string' ? query : '', options.prefixLast === true).map((t) =>
    t.prefix && t.text.length < MIN_PREFIX_CHARS ? { ...t, prefix: false } : t,
  );
  if (terms.length === 0) return { hits: [], terms: [] };
  const limit = Math.max(1, Math.min(Math.floor(Number.isFinite(options.limit) ? options.limit! : 100), 500));
  const since = Number.isFinite(options.since) ? options.since! : null;
  const until = Number.isFinite(options.until) ? options.until! : null;
  const types = new Set<HistorySearchType>(options.types?.length ? options.types.filter((t) => HISTORY_SEARCH_TYPES.includes(t)) : HISTORY_SEARCH_TYPES);
  // Rows of every index, best first; snippets (the costly part in JS) only for the ones kept.
  const ranked = SOURCES.filter((s) => types.has(s.type))
    .map((s) => searchSource(conn, s, terms, since, until, limit))
    .flatMap((r) => r.rows.map((row) => ({ r, row })))
    .sort((a, b) => b.row.score - a.row.score || Number(b.row[b.r.source.time]) - Number(a.row[a.r.source.time]))
    .slice(0, limit);
  const hits = ranked.map(({ r, row }) => hitOf(r.source, r.terms, row));
  // One cached statement per goal (a variable IN list would cache a statement per length).
  const goals = new Map<string, string | null>();
  for (const h of hits) {
    if (!h.runId) continue;
    if (!goals.has(h.runId)) goals.set(h.runId, conn.get<{ goal: string }>(`SELECT goal FROM runs WHERE id = ?`, [h.runId])?.goal ?? null);
    h.runGoal = goals.get(h.runId) ?? null;
  }
  return { hits, terms };
}
