/** Messages between the store client (any thread) and the worker that owns the database. */
import type { EngineOptions, HistoryEngine } from '../engine';
import type { HistoryReport } from '../types';

/** Engine methods the client may call; the worker refuses anything else. */
export const ENGINE_METHODS = [
  'startRun',
  'finishRun',
  'addStep',
  'addPatch',
  'addTestRun',
  'recordObservation',
  'recordQaSummary',
  'addPolicyDecision',
  'rememberFact',
  'addUsage',
  'runUsage',
  'usageByDay',
  'costSince',
  'listFacts',
  'listRuns',
  'listRunPage',
  'getRun',
  'search',
  'searchHistory',
  'deleteRun',
  'prune',
  'stats',
  'auditPage',
  'flush',
  'close',
] as const;
export type EngineMethod = (typeof ENGINE_METHODS)[number];
/** What an engine method takes and returns: the async stores forward to it and are type-checked against it. */
export type EngineArgs<M extends EngineMethod> = Parameters<HistoryEngine[M]>;
export type EngineResult<M extends EngineMethod> = ReturnType<HistoryEngine[M]>;

/** Options that can cross a thread boundary (no functions). */
export type WorkerOpenOptions = Omit<EngineOptions, 'fs' | 'now' | 'onReport'>;

export type Request =
  | { id: number; method: 'open'; args: [WorkerOpenOptions] }
  | { id: number; method: EngineMethod; args: unknown[] }
  /** Exit hook: the caller blocks on `state` until the worker stores 1 (saved) or 2 (failed). */
  | { id: number; method: 'flushSync'; state: SharedArrayBuffer };

export interface SerializedError {
  name: string;
  message: string;
  code?: string;
}

export type Response = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };
export type WorkerEvent = { event: 'report'; report: HistoryReport };
export type WorkerMessage = Response | WorkerEvent;
