import * as vscode from 'vscode';
import { openHistoryStore, type HistoryReport, type HistoryStore } from '../../../core/history';
import { retentionOptions } from '../../../core/history';
import type { HostConfig } from '../config/hostConfig';
import { errorMessage } from '../../../core/base';

/**
 * The window's one history store (the workspace's sql.js database, in its worker), opened on first
 * use and shared by the agent's runs, the test service and the history panel: one writer per window,
 * so nothing waits on a second copy's lock. Opening failures are reported once per attempt and the
 * caller goes on without history. The retention settings are applied when it opens.
 */
export class WindowHistory implements vscode.Disposable {
  private store: Promise<HistoryStore> | undefined;
  private readonly reports = new vscode.EventEmitter<HistoryReport>();
  /** What opening found (a damaged file moved aside, a backup restored) and failed saves since: the history panel shows them. */
  readonly onDidReport = this.reports.event;

  constructor(
    private readonly config: HostConfig,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The store, or undefined without a folder or when it cannot be opened (the log says why). */
  async get(): Promise<HistoryStore | undefined> {
    try {
      return await this.require();
    } catch (err) {
      this.log.warn(`history not available: ${errorMessage(err)}`);
      return undefined;
    }
  }

  /** The store, or an error saying why there is none (the history panel shows it). */
  async require(): Promise<HistoryStore> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file')
      throw new Error('Open a folder to see its history: PatchPilot keeps it in the workspace (.patchpilot/history.db).');
    const attempt = (this.store ??= this.open(folder.uri.fsPath));
    try {
      return await attempt;
    } catch (err) {
      if (this.store === attempt) this.store = undefined;
      throw err;
    }
  }

  /** The history path setting changed: the next use opens the new file. Resolves once the old one is closed. */
  reset(): Promise<void> {
    const old = this.store;
    this.store = undefined;
    return old ? old.then((s) => s.close()).catch(() => undefined) : Promise.resolve();
  }

  dispose(): void {
    void this.reset();
    this.reports.dispose();
  }

  private async open(root: string): Promise<HistoryStore> {
    const { config } = await this.config.load();
    const store = await openHistoryStore({
      workspace: root,
      path: config.settings.history.path,
      // A path from the workspace's own settings stays inside it (the same rule as the CLI's).
      allowOutsideWorkspace: config.sources['patchpilot.history.path']?.scope !== 'workspace',
      // Opened at activation to read (the patch states, the conversations): the folder appears with
      // the first thing written (durableDb), or when a run starts (createAgent), not in a project never run in.
      createStateFolder: false,
      mode: 'worker',
      retention: retentionOptions(config.settings.history.retention),
    });
    const report = (r: HistoryReport) => {
      this.log.warn(`history: ${r.message}`);
      this.reports.fire(r);
    };
    store.warnings.forEach(report);
    store.onDidReport(report);
    return store;
  }
}
