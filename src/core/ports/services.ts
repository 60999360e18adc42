import type { ApplyOptions, ApplyResult } from '../patch/types';
import type { SafeFetchResult } from '../policy/types';
import type { HistoryStore } from '../history/types';

/** Applies patch text to the workspace (PatchManager). */
export interface PatchEngine {
  apply(text: string, options: ApplyOptions): Promise<ApplyResult>;
}

/** Fetches a URL after the network policy (no private addresses, capped size and time): web's safeFetch. */
export type WebFetcher = (url: string, signal: AbortSignal) => Promise<SafeFetchResult>;

/** One web search result. */
export interface WebSearchHit {
  title: string;
  url: string;
  snippet: string;
}

/** Searches the web through the configured provider (web's fetch underneath); refusals and errors come back as `error`. */
export type WebSearcher = (query: string, signal: AbortSignal) => Promise<{ provider: string; hits: WebSearchHit[] } | { provider: string; error: string }>;

/** Searches what past runs learned (the history store). */
export type HistorySearch = Pick<HistoryStore, 'search'>;

/** The part of the history store a run writes to. */
export type RunHistory = Pick<
  HistoryStore,
  | 'startRun'
  | 'finishRun'
  | 'addStep'
  | 'addPatch'
  | 'addTestRun'
  | 'recordObservation'
  | 'recordQaSummary'
  | 'addPolicyDecision'
  | 'search'
  | 'addUsage'
  | 'costSince'
>;
