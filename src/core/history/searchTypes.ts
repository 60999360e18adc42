/**
 * What the history's searches take and give: the observations' search (recall) and the history
 * panel's search over runs, observations, patches and tests.
 */
import type { HitKindName, HitView } from '../../protocol/history';
import type { ObservationRecord, ObservationType } from './types';

export interface SearchOptions {
  /** Only hits from the last N days. */
  days?: number;
  limit?: number;
  type?: ObservationType;
}

/** What the history panel's type filter chooses from. */
export type HistorySearchType = 'runs' | 'observations' | 'patches' | 'tests';
export const HISTORY_SEARCH_TYPES: readonly HistorySearchType[] = ['runs', 'observations', 'patches', 'tests'];

/** One name per kind of row search finds; the protocol's list, so the panel and the store cannot drift. */
export type HistoryHitKind = HitKindName;

export interface HistorySearchOptions {
  /** Only rows at or after this time (ms). */
  since?: number;
  /** Only rows before this time (ms). */
  until?: number;
  /** Default: all of them. */
  types?: HistorySearchType[];
  limit?: number;
  /** The last word also matches longer words (search as you type). */
  prefixLast?: boolean;
}

/** A search hit: what the history panel shows (the protocol's HitView), plus its rank. */
export interface HistoryHit extends HitView {
  /** BM25, higher is better (comparable within one index, roughly across them). */
  score: number;
}

export interface HistorySearchResult {
  hits: HistoryHit[];
  /** The folded query words, for highlighting elsewhere (the run's timeline). */
  terms: Array<{ text: string; prefix: boolean }>;
}

export interface SearchHit extends ObservationRecord {
  /** BM25 (k1 = 1.2, b = 0.75), higher is better. */
  score: number;
}
