import * as vscode from 'vscode';
import { openHistoryStore, type HistoryStore } from '../../../core/history';
import type { HostConfig } from '../config/hostConfig';

/**
 * The window's one history store (the workspace's sql.js database, in its worker), opened on first
 * use and shared by the agent's runs, the test service and the history panel: one writer per window,
 * so nothing waits on a second copy's lock. Opening failures are reported once per attempt and the
 * caller goes on without history.
 */
export class WindowHistory implements vscode.Disposable {
  private store: Promise<HistoryStore> | undefined;

  constructor(
    private readonly config: HostConfig,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The store, or undefined without a folder or when it cannot be opened (the log says why). */
  async get(): Promise<HistoryStore | undefined> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') return undefined;
    this.store ??= this.open(folder.uri.fsPath);
    try {
      return await this.store;
    } catch (err) {
      this.store = undefined;
      this.log.warn(`history not available: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  /** The history path setting changed: the next use opens the new file. */
  reset(): void {
    const old = this.store;
    this.store = undefined;
    void old?.then((s) => s.close()).catch(() => undefined);
  }

  dispose(): void {
    this.reset();
  }

  private async open(root: string): Promise<HistoryStore> {
    const { config } = await this.config.load();
    const store = await openHistoryStore({
      workspace: root,
      path: config.settings.history.path,
      // A path from the workspace's own settings stays inside it (the same rule as the CLI's).
      allowOutsideWorkspace: config.sources['patchpilot.history.path']?.scope !== 'workspace',
      createStateFolder: true,
      mode: 'worker',
    });
    for (const w of store.warnings) this.log.warn(`history: ${w.message}`);
    store.onDidReport((r) => this.log.warn(`history: ${r.message}`));
    return store;
  }
}
