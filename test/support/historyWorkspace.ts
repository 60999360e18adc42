/** Throw-away workspaces for history-store tests, and a look at what a later process would read from the file. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HistoryEngine } from '../../src/core/history/engine';

export interface HistoryWorkspace {
  dir: string;
  /** Where openHistoryStore({ workspace: dir }) keeps the database. */
  db: string;
  cleanup(): void;
}

export function tempHistoryWorkspace(): HistoryWorkspace {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-hist-'));
  return { dir, db: path.join(dir, '.patchpilot', 'history.db'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `fn` in a fresh workspace and removes it afterwards, whether `fn` passed or threw. */
export async function withHistoryWorkspace<T>(fn: (ws: HistoryWorkspace) => Promise<T> | T): Promise<T> {
  const ws = tempHistoryWorkspace();
  try {
    return await fn(ws);
  } finally {
    ws.cleanup();
  }
}

/** The goals of the runs on disk, sorted, as a fresh engine opening the file sees them. */
export async function savedRunGoals(db: string): Promise<string[]> {
  const engine = await HistoryEngine.open({ path: db });
  try {
    return engine
      .listRuns()
      .map((r) => r.goal)
      .sort();
  } finally {
    engine.close();
  }
}
