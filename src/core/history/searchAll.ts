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
import { documentFrequency, planSearch, rowCount, type SearchPlan } from './searchPlan';
import { matchRanges, queryTerms, snippetAround, type QueryTerm } from '../../protocol/historyMatch';
import { HISTORY_SEARCH_TYPES, type HistoryHit, type HistoryHitKind, type HistorySearchOptions, type HistorySearchResult, type HistorySearchType } from './types';

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
    title: (r) => (r.tool ? `${str(r.tool)} ${r.role === 'tool' ? 'call' : str(r.role)}` : r.role === 'user' ? 'User message' : r.role === 'assistant' ? 'Model message' : `${str(r.role)} message`),
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

function statement(s: Source, plan: SearchPlan): string {
  const scored = `SELECT s.*, bm25(matchinfo(${s.fts}, 'pcnalx')) AS score
    FROM ${s.fts} CROSS JOIN ${s.table} s ON s.rowid = ${s.fts}.docid
    WHERE ${s.fts} MATCH ? AND (? IS NULL OR s.${s.time} >= ?) AND (? IS NULL OR s.${s.time} < ?)`;
  switch (plan.kind) {
    case 'all':
      return `${scored} ORDER BY score DESC, s.${s.time} DESC LIMIT ?`;
    case 'selective':
      return `${scored} AND +${s.fts}.docid IN (SELECT docid FROM ${s.fts} WHERE ${s.fts} MATCH ?) ORDER BY score DESC, s.${s.time} DESC LIMIT ?`;
    case 'recent':
      return `SELECT * FROM (${scored} ORDER BY ${s.fts}.docid DESC LIMIT ?) ORDER BY score DESC, ${s.time} DESC LIMIT ?`;
  }
}

function searchSource(conn: SqlConn, s: Source, terms: QueryTerm[], since: number | null, until: number | null, limit: number): HistoryHit[] {
  const plan = planSearch(
    terms.map((t) => `${t.text}${t.prefix ? '*' : ''}`),
    (key) => documentFrequency(conn, key.replace(/\*$/, ''), s.fts, key.endsWith('*')),
    rowCount(conn, s.table),
  );
  const planParams = plan.kind === 'selective' ? [orOf(terms.filter((t) => plan.selective.includes(`${t.text}${t.prefix ? '*' : ''}`)))] : plan.kind === 'recent' ? [plan.newest] : [];
  const rows = conn.all<Row & { score: number }>(statement(s, plan), [orOf(terms), since, since, until, until, ...planParams, limit]);
  return rows.map((r) => {
    const texts = s.fields.map((f) => (f === 'files' ? filesOf(r[f]) : str(r[f])));
    const source = texts.find((t) => matchRanges(t, terms, 1).length > 0) ?? texts.find((t) => t) ?? '';
    const snippet = snippetAround(source, terms);
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
  });
}

export function searchHistory(conn: SqlConn, query: string, options: HistorySearchOptions = {}): HistorySearchResult {
  const terms = queryTerms(typeof query === 'string' ? query : '', options.prefixLast === true);
  if (terms.length === 0) return { hits: [], terms: [] };
  const limit = Math.max(1, Math.min(Math.floor(Number.isFinite(options.limit) ? options.limit! : 100), 500));
  const since = Number.isFinite(options.since) ? options.since! : null;
  const until = Number.isFinite(options.until) ? options.until! : null;
  const types = new Set<HistorySearchType>(options.types?.length ? options.types.filter((t) => HISTORY_SEARCH_TYPES.includes(t)) : HISTORY_SEARCH_TYPES);
  const hits = SOURCES.filter((s) => types.has(s.type))
    .flatMap((s) => searchSource(conn, s, terms, since, until, limit))
    .sort((a, b) => b.score - a.score || b.time - a.time)
    .slice(0, limit);
  // One cached statement per goal (a variable IN list would cache a statement per length).
  const goals = new Map<string, string | null>();
  for (const h of hits) {
    if (!h.runId) continue;
    if (!goals.has(h.runId)) goals.set(h.runId, conn.get<{ goal: string }>(`SELECT goal FROM runs WHERE id = ?`, [h.runId])?.goal ?? null);
    h.runGoal = goals.get(h.runId) ?? null;
  }
  return { hits, terms };
}
