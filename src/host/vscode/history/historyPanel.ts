import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { HistoryBoot, HistoryToWebviewMessage } from '../../../protocol/history';
import { runs } from './handlers/runs';
import type { HistoryHandlerContext } from './handlers/types';
import { buildHistoryHtml } from './historyHtml';
import { routeHistory } from './router';

export const HISTORY_PANEL_TYPE = 'patchpilot.history';
/** Pushes to the panel at most this often while a run writes. */
const PUSH_EVERY_MS = 300;
/** How long the HTML waits for the first page (the store open: a few ms); past it, the panel asks itself. */
const BOOT_WAIT_MS = 150;
const FIRST_PAGE = 100;

/**
 * The one history panel in the editor area: "Show History" creates it or reveals it where it is.
 * The panel keeps nothing the store does not have: it asks in pages through the typed protocol, and
 * is told when something changed; after a reload VS Code restores it (the serializer) and it asks again.
 */
export class HistoryPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private pendingRuns = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly ctx: HistoryHandlerContext,
  ) {}

  get isOpen(): boolean {
    return this.panel !== undefined;
  }

  show(): void {
    if (this.panel) {
      this.panel.reveal(this.panel.viewColumn);
      this.post({ kind: 'push', type: 'history/focus', payload: {} });
      return;
    }
    // Kept alive behind other tabs: showing it again is instant and keeps the scroll and the open run
    // (its DOM is small: the lists are virtualised). After a reload the serializer brings it back.
    const panel = vscode.window.createWebviewPanel(HISTORY_PANEL_TYPE, 'PatchPilot History', vscode.ViewColumn.Active, {
      enableScripts: true,
      retainContextWhenHidden: true,
      localResourceRoots: this.roots(),
    });
    this.attach(panel);
  }

  /** VS Code restores the panel after a reload (registerWebviewPanelSerializer). */
  restore(panel: vscode.WebviewPanel): void {
    if (this.panel) {
      panel.dispose();
      return this.show();
    }
    this.attach(panel);
  }

  /** Something was written: tell the panel (coalesced), with the runs known to have changed. */
  changed(runIds: readonly string[] = []): void {
    for (const id of runIds) this.pendingRuns.add(id);
    if (this.timer || !this.panel) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const ids = [...this.pendingRuns];
      this.pendingRuns.clear();
      this.post({ kind: 'push', type: 'history/changed', payload: { runIds: ids } });
    }, PUSH_EVERY_MS);
  }

  async pushStatus(): Promise<void> {
    if (this.panel)
      this.post({ kind: 'push', type: 'history/status', payload: { ...(await this.ctx.service.status()), running: this.ctx.running?.() ?? false } });
  }

  private cached: { script: string; style: string } | undefined;

  /** The built panel (dist/webview/history.js and .css), read once: it goes inline into the HTML. */
  private bundle(): { script: string; style: string } {
    const dist = path.join(this.extensionUri.fsPath, 'dist', 'webview');
    return (this.cached ??= { script: readFileSync(path.join(dist, 'history.js'), 'utf8'), style: readFileSync(path.join(dist, 'history.css'), 'utf8') });
  }

  private roots(): vscode.Uri[] {
    return [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(this.extensionUri, 'media')];
  }

  /**
   * The status and the first page, when the window's store is open (a few ms): they go into the HTML
   * and the panel draws its rows without a round trip. While the store still opens, nothing is waited for.
   */
  private async boot(): Promise<HistoryBoot | undefined> {
    const ready = Promise.all([this.ctx.service.status(), runs({ offset: 0, limit: FIRST_PAGE }, this.ctx)]).then(
      ([status, page]) => (status.available ? { status, runs: page.runs, total: page.total } : undefined),
      () => undefined,
    );
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), BOOT_WAIT_MS)));
    try {
      return await Promise.race([ready, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private attach(panel: vscode.WebviewPanel): void {
    this.panel = panel;
    const webview = panel.webview;
    webview.options = { enableScripts: true, localResourceRoots: this.roots() };
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'patchpilot.svg');
    const bundle = this.bundle();
    void this.boot().then((boot) => {
      if (this.panel !== panel) return;
      webview.html = buildHistoryHtml({
        cspSource: webview.cspSource,
        nonce: randomBytes(18)
          .toString('base64')
          .replace(/[^A-Za-z0-9]/g, '')
          .padEnd(16, '0'),
        script: bundle.script,
        style: bundle.style,
        ...(boot ? { boot } : {}),
      });
    });
    const subs = [webview.onDidReceiveMessage((raw: unknown) => void routeHistory(raw, this.ctx, (m) => this.post(m)))];
    panel.onDidDispose(() => {
      subs.forEach((s) => s.dispose());
      if (this.panel === panel) this.panel = undefined;
    });
  }

  private post(message: HistoryToWebviewMessage): void {
    void this.panel?.webview.postMessage(message).then(undefined, () => undefined);
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.panel?.dispose();
  }
}
