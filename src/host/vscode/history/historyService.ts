import path from 'node:path';
import * as vscode from 'vscode';
import type { HistoryReport, HistoryStore } from '../../../core/history';
import { retentionOptions } from '../../../core/history';
import type { RetentionOptions } from '../../../core/history';
import type { HistoryProblem, HistoryStatusView, RetentionView } from '../../../protocol/history';
import type { HostConfig } from '../config/hostConfig';
import type { WindowHistory } from '../workspace/windowHistory';
import { addAll, DisposableStore } from '../../../core/base';
import { errorMessage } from '../../../core/base';

/** Quiet time after the file changes before the panel is told (an atomic save is a few events). */
const CHANGE_DEBOUNCE_MS = 250;
const MAX_PROBLEMS = 5;

/**
 * The history panel's view of the window's one history store (WindowHistory, in its worker; the
 * agent writes to the same store, so this window's runs show as they happen). It keeps what went
 * wrong opening the file (a damaged file moved aside, a backup restored, a path the settings refuse)
 * as problems for the panel, reads the retention settings, and says when the file changed on disk:
 * another window or the CLI saved (their rows arrive through the store's merge on the next read).
 */
export class HistoryService implements vscode.Disposable {
  private problems: HistoryProblem[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;
  private watched: string | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly statusChanged = new vscode.EventEmitter<void>();
  private readonly disposables = new DisposableStore();
  /** The file changed on disk, or the store was reopened. */
  readonly onDidChange = this.changed.event;
  readonly onDidChangeStatus = this.statusChanged.event;

  constructor(
    private readonly history: WindowHistory,
    private readonly config: HostConfig,
    private readonly log: vscode.LogOutputChannel,
  ) {
    addAll(
      this.disposables,
      this.changed,
      this.statusChanged,
      history.onDidReport((r) => this.report(r)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('patchpilot.history')) {
          this.statusChanged.fire();
          this.changed.fire();
        }
      }),
    );
  }

  /** The open store; throws with a message for the panel when the history cannot be opened. */
  async store(): Promise<HistoryStore> {
    const store = await this.history.require();
    this.watch(store.path);
    return store;
  }

  async status(): Promise<HistoryStatusView> {
    const trusted = vscode.workspace.isTrusted;
    const retention = await this.retentionView().catch((): RetentionView => ({ source: 'unknown (the settings could not be read)' }));
    try {
      const store = await this.store();
      return { path: store.path, available: true, retention, problems: [...this.problems], trusted };
    } catch (err) {
      return { path: '', available: false, retention, problems: [...this.problems, { level: 'error', message: message(err) }], trusted };
    }
  }

  /** The retention the settings ask for now (undefined: keep everything), as the store applies it. */
  async retention(): Promise<RetentionOptions | undefined> {
    return retentionOptions((await this.config.load()).config.settings.history.retention);
  }

  /** Closes the store; the next request opens the file again (and reports what it found). */
  async reopen(): Promise<void> {
    this.problems = [];
    await this.history.reset();
    this.statusChanged.fire();
    this.changed.fire();
  }

  private async retentionView(): Promise<RetentionView> {
    const { config } = await this.config.load();
    const sources = [config.sources['patchpilot.history.retention.days'], config.sources['patchpilot.history.retention.maxObservations']].filter(Boolean);
    const source = sources.length ? (sources.some((s) => s!.scope === 'workspace') ? 'workspace settings' : 'user settings') : 'default';
    return { ...config.settings.history.retention, source };
  }

  private report(r: HistoryReport): void {
    const level: HistoryProblem['level'] =
      r.kind === 'persist-recovered' ? 'info' : r.kind === 'persist-failed' || r.kind === 'recovered-fresh' ? 'error' : 'warning';
    // A save that works again clears the "could not save" it follows.
    const kept = r.kind === 'persist-recovered' ? this.problems.filter((p) => !p.message.startsWith('Could not save')) : this.problems;
    this.problems = [...kept, { level, message: r.message }].slice(-MAX_PROBLEMS);
    this.statusChanged.fire();
  }

  /** VS Code's watcher (outside the workspace too, by a RelativePattern): another process's atomic save renames over the file. */
  private watch(dbPath: string): void {
    if (this.watched === dbPath) return;
    this.watcher?.dispose();
    this.watched = dbPath;
    const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(dbPath)), path.basename(dbPath)));
    const fire = () => {
      if (this.timer) clearTimeout(this.timer);
      this.timer = setTimeout(() => this.changed.fire(), CHANGE_DEBOUNCE_MS);
    };
    w.onDidChange(fire);
    w.onDidCreate(fire);
    w.onDidDelete(fire);
    this.watcher = w;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.dispose();
    this.disposables.dispose();
  }
}

function message(err: unknown): string {
  return errorMessage(err);
}
