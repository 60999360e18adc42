/**
 * Entry point of the history store. Hosts call `openHistoryStore`; everyone else depends on the
 * `HistoryStore` interface only.
 */
import path from 'node:path';
import type { Notifier } from '../ports';
import { InProcessHistoryStore } from './inProcessStore';
import type { HistoryStore, RetentionOptions } from './types';
import { WorkerHistoryStore } from './workerStore';

export * from './types';
export { toMatchExpression } from './search';

export const DEFAULT_HISTORY_PATH = path.join('.patchpilot', 'history.db');

export interface OpenHistoryOptions {
  /** Workspace folder; the database is `<workspace>/.patchpilot/history.db` unless `path` says otherwise. */
  workspace: string;
  /** The `patchpilot.history.path` setting: absolute, or relative to the workspace. */
  path?: string;
  retention?: RetentionOptions;
  notifier?: Notifier;
  /** 'worker' (default): the database lives in a worker thread. 'in-process': on this thread (short-lived CLIs, tests). */
  mode?: 'worker' | 'in-process';
  /** Install a process.on('exit') last-chance save (default true). */
  exitHook?: boolean;
  persistDelayMs?: number;
  maxPersistDelayMs?: number;
  lockTimeoutMs?: number;
  lockStaleMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  workerScript?: string;
}

export function historyDbPath(workspace: string, configured?: string): string {
  return path.resolve(workspace, configured && configured.trim() ? configured : DEFAULT_HISTORY_PATH);
}

/** Opens (or creates on first save) the workspace's history. Never throws because the file is damaged: see `store.warnings`. */
export async function openHistoryStore(options: OpenHistoryOptions): Promise<HistoryStore> {
  const { workspace, path: configured, mode, ...rest } = options;
  const dbPath = historyDbPath(workspace, configured);
  if (mode === 'in-process') return InProcessHistoryStore.open({ ...rest, path: dbPath });
  return WorkerHistoryStore.open({ ...rest, path: dbPath });
}
