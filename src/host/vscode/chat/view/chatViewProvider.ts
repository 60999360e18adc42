import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { ChatViewSlot } from './chatViewSlot';
import type { ToWebviewMessage } from '../../../../protocol/chat';
import type { ChatController } from '../controller/chatController';
import type { PatchStates } from '../../patches/patchStates';
import { buildChatHtml } from './html';
import { route } from '../handlers/router';
import { addAll, DisposableStore } from '../../../../core/base';

export const CHAT_VIEW_ID = 'patchpilot.chat';
/** How long after Open Chat a view that finishes loading still takes the focus. */
const FOCUS_WINDOW_MS = 15_000;

/**
 * The sidebar chat. The view keeps no state the host does not have: on (re)load it asks for a
 * snapshot (`chat/ready`), and each time it becomes visible the host sends one, so a hidden panel
 * or a reload shows the same chat and the approvals that still wait.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
  private readonly disposables = new DisposableStore();

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly host: ChatController,
    private readonly log: vscode.LogOutputChannel,
    private readonly slot: ChatViewSlot,
    /** The window's one source of patch states: the cards show it, however it changed. */
    private readonly patchStates?: PatchStates,
  ) {
    addAll(
      this.disposables,
      host.onPush((type, payload) => {
        this.post({ kind: 'push', type, payload } as ToWebviewMessage);
        if (type === 'chat/snapshot') this.postPatchStates();
      }),
    );
    if (patchStates)
      addAll(
        this.disposables,
        patchStates.onDidChange((patches) => this.post({ kind: 'push', type: 'chat/patchStates', payload: { patches } })),
      );
  }

  /** After a snapshot (its cards drawn from the chat's events), every patch's state as it is now. */
  private postPatchStates(): void {
    void this.patchStates?.knowConversation(this.host.snapshot().entries); // a chat kept across a reload: patches the store has not seen
    const patches = this.patchStates?.all() ?? [];
    if (patches.length) this.post({ kind: 'push', type: 'chat/patchStates', payload: { patches } });
  }

  get visible(): boolean {
    return this.slot.visible;
  }

  private get view(): vscode.WebviewView | undefined {
    return this.slot.view;
  }

  private set view(view: vscode.WebviewView | undefined) {
    this.slot.view = view;
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    // The first view of this extension host is a window (re)load: it opens at the end; a view shown again keeps its reading position.
    const openAtEnd = !this.resolvedBefore;
    this.resolvedBefore = true;
    const webview = view.webview;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    webview.options = { enableScripts: true, localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, 'media')] };
    webview.html = buildChatHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(18)
        .toString('base64')
        .replace(/[^A-Za-z0-9]/g, '')
        .padEnd(16, '0'),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'chat.js')).toString(),
      styleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'chat.css')).toString(),
      iconStyleUri: webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicon.css')).toString(),
      openAtEnd,
    });
    const ctx = { host: this.host, log: this.log };
    const subs = [
      webview.onDidReceiveMessage(
        (raw: unknown) =>
          void route(raw, ctx, (m) => this.post(m)).then(() => {
            if ((raw as { type?: unknown } | null)?.type === 'chat/ready') this.postPatchStates();
            // A view that loads after Open Chat asked for the focus missed that push: ask again once it listens.
            if (Date.now() - this.focusWantedAt < FOCUS_WINDOW_MS && (raw as { type?: unknown } | null)?.type === 'chat/ready') {
              this.focusWantedAt = 0;
              this.post({ kind: 'push', type: 'chat/focus', payload: {} });
            }
          }),
      ),
      view.onDidChangeVisibility(() => {
        if (!view.visible) return;
        this.post({ kind: 'push', type: 'chat/snapshot', payload: this.host.snapshot() });
        this.postPatchStates();
      }),
    ];
    view.onDidDispose(() => {
      subs.forEach((s) => s.dispose());
      if (this.view === view) this.view = undefined;
    });
  }

  /** Asks the view to focus its message box (after Open Chat revealed it). */
  focusInput(): void {
    this.focusWantedAt = Date.now();
    this.post({ kind: 'push', type: 'chat/focus', payload: {} });
  }

  /** When Open Chat last asked for the focus: a view whose script loads just after missed the push. */
  private focusWantedAt = 0;
  private resolvedBefore = false;

  private post(message: ToWebviewMessage): void {
    void this.view?.webview.postMessage(message).then(undefined, () => undefined);
  }

  dispose(): void {
    this.disposables.dispose();
  }
}
