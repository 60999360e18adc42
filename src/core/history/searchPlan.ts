/**
 * Which rows a search scores. BM25 runs in JS (a registered SQL function, ~2-4 µs a row with the
 * matchinfo it reads), once for every row the MATCH yields: a query word found in most rows would
 * score most of the table (150-400 ms at 100,000 rows) only to rank those rows low, since such a
 * word has almost no weight. So a word is "common" when it is in more than COMMON_TERM_FRACTION of
 * the rows, and in more than COMMON_TERM_MIN_ROWS of them (below that, scoring it is cheap and the
 * search stays exact), and:
 *  - a query with other words scores only the rows that hold one of those; the common words still
 *    add their share to those rows' scores, so the order among them is exact BM25. Rows that hold
 *    nothing but common words are left out: they would rank below the others anyway.
 *  - a query made only of common words ranks the RECENT_CANDIDATES most recently added matching rows,
 *    not the whole table: what is asked is then "what did we see lately that mentions these".
 */
import type { SqlConn } from './sqlConn';

export const COMMON_TERM_FRACTION = 0.1;
export const COMMON_TERM_MIN_ROWS = 1_000;
export const RECENT_CANDIDATES = 2_000;

export type SearchPlan =
  /** Score every matching row (exact BM25). */
  | { kind: 'all' }
  /** Score only rows holding one of `selective` (every term still counts in the score). */
  | { kind: 'selective'; selective: string[] }
  /** Only common words: score the newest `newest` matching rows. */
  | { kind: 'recent'; newest: number };

/** The plan for `terms`, given each term's document frequency and the number of rows. */
export function planSearch(terms: readonly string[], documentFrequency: (term: string) => number, rows: number): SearchPlan {
  const commonAbove = Math.max(COMMON_TERM_FRACTION * rows, COMMON_TERM_MIN_ROWS);
  if (rows <= commonAbove) return { kind: 'all' }; // no word can be common: skip the look-ups
  const df = terms.map(documentFrequency);
  if (!df.some((d) => d > commonAbove)) return { kind: 'all' };
  // A term the index does not know (df 0) selects nothing, so it cannot stand for the query either.
  const selective = terms.filter((_, i) => df[i]! > 0 && df[i]! <= commonAbove);
  return selective.length > 0 ? { kind: 'selective', selective } : { kind: 'recent', newest: RECENT_CANDIDATES };
}

const termTables = new WeakMap<SqlConn, Set<string>>();

/**
 * Rows holding `term` in any column, from FTS4's own term index (fts4aux), without running a MATCH.
 * The index stores terms as the unicode61 tokenizer left them: lower case, Latin diacritics removed.
 * It counts committed rows only (FTS4 holds an open transaction's terms in memory), which is what
 * reads see: the engine commits its write batch before every read. `fts` names the index
 * (observations by default); with `prefix`, every term starting with `term` counts (an upper bound:
 * a row holding two such words is counted twice, which only makes the plan more careful).
 */
export function documentFrequency(conn: SqlConn, term: string, fts = 'observations_fts', prefix = false): number {
  let made = termTables.get(conn);
  if (!made) termTables.set(conn, (made = new Set()));
  if (!made.has(fts)) {
    // A temp table: per connection, never saved into the file, so the schema stays as it was.
    conn.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${fts}_terms USING fts4aux(main, ${fts})`);
    made.add(fts);
  }
  const indexed = term.normalize('NFD').replace(/\p{M}/gu, '');
  if (!prefix)
    return Number(conn.get<{ documents: number }>(`SELECT documents FROM temp.${fts}_terms WHERE term = ? AND col = '*'`, [indexed])?.documents ?? 0);
  return Number(
    conn.get<{ documents: number }>(`SELECT coalesce(sum(documents), 0) AS documents FROM temp.${fts}_terms WHERE term >= ? AND term < ? AND col = '*'`, [
      indexed,
      `${indexed}\u{10FFFF}`,
    ])?.documents ?? 0,
  );
}

export function observationCount(conn: SqlConn): number {
  return rowCount(conn, 'observations');
}

export function rowCount(conn: SqlConn, table: string): number {
  return Number(conn.get<{ c: number }>(`SELECT count(*) AS c FROM ${table}`)?.c ?? 0);
}
