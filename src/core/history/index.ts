/**
 * Entry point of the history store. Hosts call `openHistoryStore`; everyone else depends on the
 * `HistoryStore` interface only.
 */
import path from 'node:path';
import { UserError } from '../base';
import { InProcessHistoryStore } from './inProcessStore';
import type { HistoryStore } from './types';
import { WorkerHistoryStore, type WorkerStoreOptions } from './workerStore';
import { confiningRoot, ensureRealFolderChain } from './stateFolder';

export * from './types';
export * from './searchTypes';
export { toMatchExpression } from './search';
export { hunkNoteOf } from './hunkNotes';
export type { UsageDayView, UsageInput, UsageTotalsView } from './usage';
export { startOfLocalDay } from './usage';

export const DEFAULT_HISTORY_PATH = path.join('.patchpilot', 'history.db');

/** The worker store's options (saving, locking, retention, notifier), with the path taken from the workspace. */
export interface OpenHistoryOptions extends Omit<WorkerStoreOptions, 'path'> {
  /** Workspace folder; the database is `<workspace>/.patchpilot/history.db` unless `path` says otherwise. */
  workspace: string;
  /** The `patchpilot.history.path` setting: absolute, or relative to the workspace. */
  path?: string;
  /** The path came from the user (a flag, user-scope setting), so it may lie outside the workspace. */
  allowOutsideWorkspace?: boolean;
  /** 'worker' (default): the database lives in a worker thread. 'in-process': on this thread (short-lived CLIs, tests). */
  mode?: 'worker' | 'in-process';
  /**
   * Create the state folder now (an agent run: before any command of the agent can replace it with
   * a link, attacks.state). Without it, opening only reads and nothing appears until something is written.
   */
  createStateFolder?: boolean;
}

/**
 * Resolves the `patchpilot.history.path` setting. A path outside the workspace is refused unless the
 * caller says the value came from the user (not from the workspace): a cloned repository must not be
 * able to point the store at ~/.bashrc, which the store would move aside as "damaged" and overwrite.
 */
export function historyDbPath(workspace: string, configured?: string, options: { allowOutsideWorkspace?: boolean } = {}): string {
  const root = path.resolve(workspace);
  const resolved = path.resolve(root, configured && configured.trim() ? configured : DEFAULT_HISTORY_PATH);
  const rel = path.relative(root, resolved);
  const inside = rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
  if (!inside && !options.allowOutsideWorkspace) {
    throw new UserError(`the history database path ${resolved} is outside the workspace ${root}`, 'history-path-outside');
  }
  return resolved;
}

/**
 * Checks the history's folder is reached through real folders only (attacks.state) and, with `create`,
 * makes it: a run does so before any command of the agent can run (the sandbox then binds it read-only),
 * also when the host lends it a store that was opened only to read. Returns the database path.
 */
export function prepareStateFolder(
  options: Pick<OpenHistoryOptions, 'workspace' | 'path' | 'allowOutsideWorkspace'>,
  create: boolean,
): { dbPath: string; confineTo?: string } {
  const dbPath = historyDbPath(options.workspace, options.path, { allowOutsideWorkspace: options.allowOutsideWorkspace ?? false });
  const confineTo = confiningRoot(options.workspace, dbPath);
  if (confineTo) ensureRealFolderChain(confineTo, path.dirname(dbPath), undefined, { create });
  return confineTo ? { dbPath, confineTo } : { dbPath };
}

/** Opens (or creates on first save) the workspace's history. Never throws because the file is damaged: see `store.warnings`. */
export async function openHistoryStore(options: OpenHistoryOptions): Promise<HistoryStore> {
  const { workspace, path: configured, allowOutsideWorkspace, mode, createStateFolder, ...rest } = options;
  const { dbPath, confineTo } = prepareStateFolder({ workspace, path: configured, allowOutsideWorkspace }, createStateFolder === true);
  if (mode === 'in-process') return InProcessHistoryStore.open({ ...rest, path: dbPath, confineTo });
  return WorkerHistoryStore.open({ ...rest, path: dbPath, confineTo });
}
// Used by the hosts (VS Code, the CLI), which import the core only through folder entries.
export { runAuditJson, writeAudit } from './auditExport';
export { retentionOptions } from './retention';
