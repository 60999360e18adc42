import type { HistoryHandler } from './types';

/** Hits per search: the list is virtualised, but a person reads the first few dozen. */
const LIMIT = 100;

/** BM25 over everything, in the time range and types asked; the hits carry their matched words as ranges. */
export const search: HistoryHandler<'history/search'> = async ({ query, since, until, types, prefix }, { service }) => {
  const r = await (await service.store()).searchHistory(query, { since, until, types, prefixLast: prefix, limit: LIMIT });
  return { hits: r.hits.map(({ score: _score, ...hit }) => hit), terms: r.terms };
};
