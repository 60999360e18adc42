/**
 * The window's one source of each patch's state (proposed, applied, partly applied, refused, undone,
 * applied again, taken back by a restore), fed by what changes it: the run's events and the user's
 * Undo Patch (the chat host's entries), the history's Apply Again and Revert, restores to a
 * checkpoint. Every view subscribes (onDidChange): the chat's cards (chat/ChatViewProvider), the
 * history panel (history/registerHistory, which reads the outcomes the history records), the status
 * bar (patchStatusBar.ts). No view keeps a copy that the others' actions could leave stale.
 */
import * as vscode from 'vscode';
import type { ChatEntry, ToWebview } from '../../../protocol/chat';
import type { PatchStateView } from '../../../protocol/patchState';
import { PatchStateTable, type PatchChange } from './patchStateTable';

type PushListener = (listener: (type: string, payload: unknown) => void) => vscode.Disposable;

export class PatchStates implements vscode.Disposable {
  private readonly table = new PatchStateTable();
  private readonly changed = new vscode.EventEmitter<PatchStateView[]>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** Patches whose state changed, each as it is now. */
  readonly onDidChange = this.changed.event;

  /** Every patch this window knows, oldest first (a view that (re)loads draws them all). */
  all(): PatchStateView[] {
    return this.table.all();
  }

  get(ref: { runId?: string; patchId?: string; undoKey?: string }): PatchStateView | undefined {
    return this.table.get(ref);
  }

  /** The chat host's entries: the run's patch events, the user's undos and restores. */
  follow(onPush: PushListener): void {
    this.disposables.push(
      onPush((type, payload) => {
        if (type === 'chat/entry') this.noteEntry((payload as ToWebview['chat/entry']).entry);
      }),
    );
  }

  noteEntry(entry: ChatEntry): void {
    if (entry.kind === 'event') this.change({ kind: 'event', event: entry.event, at: Date.now() });
    if (entry.kind === 'restore') this.change({ kind: 'restored', done: entry.done });
  }

  /** The history's Apply Again or Revert wrote (or a restore): the views hear of it. */
  change(change: PatchChange): void {
    const changed = this.table.apply(change);
    if (changed.length) this.changed.fire(changed);
  }

  dispose(): void {
    this.disposables.forEach((d) => d.dispose());
  }
}
