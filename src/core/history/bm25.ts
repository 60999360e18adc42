/**
 * BM25 ranking over FTS4's matchinfo. The sql.js npm build has FTS3/FTS4 but not FTS5 (no built-in
 * bm25()), so we compute it ourselves from matchinfo(t, 'pcnalx') in a SQL function registered on
 * the connection: SQLite then sorts and limits, and only the top rows cross into JS as objects.
 *
 * Score = sum over query terms i and columns j of
 *   w_j * idf(i, j) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * len_j / avglen_j))
 * with idf = ln(1 + (N - df + 0.5) / (df + 0.5)) (the always-positive Lucene form, so a term found
 * in most rows still adds a little instead of subtracting).
 */
import type { Database } from 'sql.js';

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
/** Weights of the indexed columns, in schema order: text (insight or question), detail, path. */
export const BM25_WEIGHTS: readonly number[] = [1, 1, 1];

/** Scores one row from the raw 'pcnalx' matchinfo blob (32-bit unsigned ints, machine order). */
export function bm25FromMatchinfo(info: Uint8Array, weights: readonly number[] = BM25_WEIGHTS, k1 = BM25_K1, b = BM25_B): number {
  const v = new Uint32Array(info.buffer, info.byteOffset, info.byteLength >>> 2);
  const phrases = v[0]!;
  const cols = v[1]!;
  const rows = v[2]!;
  const avgOffset = 3;
  const lenOffset = avgOffset + cols;
  const hitOffset = lenOffset + cols;
  let score = 0;
  for (let i = 0; i < phrases; i++) {
    for (let j = 0; j < cols; j++) {
      const base = hitOffset + 3 * (i * cols + j);
      const tf = v[base]!;
      if (tf === 0) continue;
      const df = v[base + 2]!;
      const idf = Math.log(1 + (rows - df + 0.5) / (df + 0.5));
      const avg = v[avgOffset + j]! || 1;
      const len = v[lenOffset + j]!;
      score += (weights[j] ?? 1) * idf * ((tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * len) / avg)));
    }
  }
  return score;
}

export function registerBm25(db: Database): void {
  db.create_function('bm25', (info: unknown) => (info instanceof Uint8Array ? bm25FromMatchinfo(copyAligned(info)) : 0));
}

/** Uint32Array needs a 4-byte aligned offset; sql.js blobs usually are fresh copies, but be safe. */
function copyAligned(info: Uint8Array): Uint8Array {
  return info.byteOffset % 4 === 0 ? info : info.slice();
}
