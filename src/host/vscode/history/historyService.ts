import path from 'node:path';
import * as vscode from 'vscode';
import { openHistoryStore, type HistoryReport, type HistoryStore } from '../../../core/history';
import { retentionOptions } from '../../../core/history/retention';
import type { RetentionOptions } from '../../../core/history/types';
import type { HistoryProblem, HistoryStatusView, RetentionView } from '../../../protocol/history';
import type { HostConfig } from '../config/hostConfig';

/** Quiet time after the file changes before the panel is told (an atomic save is a few events). */
const CHANGE_DEBOUNCE_MS = 250;

interface Opened {
  store: HistoryStore;
  path: string;
  retention: RetentionView;
  retentionOptions?: RetentionOptions;
}

/**
 * The history panel's own HistoryStore for the workspace, in a worker thread (never the extension
 * host's thread), opened on first use with the same path and retention settings as a run. It
 * keeps what went wrong while opening (a damaged file moved aside, a backup restored, a path the
 * settings refuse) as problems for the panel, reopens when the settings change, and says when the
 * file changed on disk: a run of this window, another window or the CLI saved (their rows arrive
 * through the store's merge on the next read).
 */
export class HistoryService implements vscode.Disposable {
  private opening: Promise<Opened> | undefined;
  private problems: HistoryProblem[] = [];
  private watcher: vscode.FileSystemWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly statusChanged = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** The file changed on disk, or the store reported something. */
  readonly onDidChange = this.changed.event;
  readonly onDidChangeStatus = this.statusChanged.event;

  constructor(
    private readonly config: HostConfig,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.disposables.push(
      this.changed,
      this.statusChanged,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('patchpilot.history')) void this.reopen();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => void this.reopen()),
    );
  }

  /** The open store; throws with a message for the panel when the history cannot be opened. */
  async store(): Promise<HistoryStore> {
    return (await this.open()).store;
  }

  async status(): Promise<HistoryStatusView> {
    const trusted = vscode.workspace.isTrusted;
    try {
      const o = await this.open();
      return { path: o.path, available: true, retention: o.retention, problems: [...this.problems], trusted };
    } catch (err) {
      return { path: '', available: false, retention: { source: 'unknown' }, problems: [...this.problems, { level: 'error', message: message(err) }], trusted };
    }
  }

  /** The retention the settings ask for (undefined: none), as the store applies it. */
  async retention(): Promise<RetentionOptions | undefined> {
    return (await this.open()).retentionOptions;
  }

  /** Settings changed, or the user asked to try again after a failure. */
  async reopen(): Promise<void> {
    const previous = this.opening;
    this.opening = undefined;
    this.problems = [];
    if (previous) await previous.then((o) => o.store.close()).catch((err: unknown) => this.log.warn(`history: closing the previous store: ${message(err)}`));
    this.statusChanged.fire();
    this.changed.fire();
  }

  private open(): Promise<Opened> {
    this.opening ??= this.openNow();
    const attempt = this.opening;
    // A failure is not cached: the next request tries again (the user may have fixed the setting).
    attempt.catch(() => {
      if (this.opening === attempt) this.opening = undefined;
    });
    return attempt;
  }

  private async openNow(): Promise<Opened> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') throw new Error('Open a folder to see its history: PatchPilot keeps the history in the workspace (.patchpilot/history.db).');
    const loaded = await this.config.load();
    const settings = loaded.config.settings;
    const fromWorkspace = loaded.config.sources['patchpilot.history.path']?.scope === 'workspace';
    const options = retentionOptions(settings.history.retention);
    const store = await openHistoryStore({
      workspace: folder.uri.fsPath,
      path: settings.history.path,
      allowOutsideWorkspace: !fromWorkspace,
      retention: options,
    });
    for (const w of store.warnings) this.report(w);
    store.onDidReport((r) => this.report(r));
    this.watch(store.path);
    const days = loaded.config.sources['patchpilot.history.retention.days'];
    const max = loaded.config.sources['patchpilot.history.retention.maxObservations'];
    const source = [days, max].filter(Boolean).map((s) => (s!.scope === 'user' ? 'user settings' : 'workspace settings'))[0] ?? 'default: keep everything';
    const retention: RetentionView = { ...settings.history.retention, source };
    this.log.info(`history panel: ${store.path}`);
    return { store, path: store.path, retention, retentionOptions: options };
  }

  private report(r: HistoryReport): void {
    const level: HistoryProblem['level'] = r.kind === 'persist-recovered' ? 'info' : r.kind === 'persist-failed' || r.kind === 'recovered-fresh' ? 'error' : 'warning';
    this.problems = [...this.problems.filter((p) => !(r.kind === 'persist-recovered' && p.message.startsWith('Could not save'))), { level, message: r.message }].slice(-5);
    this.log[level === 'error' ? 'error' : level === 'warning' ? 'warn' : 'info'](`history: ${r.message}`);
    this.statusChanged.fire();
  }

  /** VS Code's watcher (outside the workspace too, by a RelativePattern): the atomic save renames over the file. */
  private watch(dbPath: string): void {
    this.watcher?.dispose();
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
    this.disposables.forEach((d) => d.dispose());
    void this.opening?.then((o) => o.store.close()).catch(() => undefined);
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
