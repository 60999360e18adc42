/**
 * The window's one source of each patch's state (proposed, applied, partly applied, refused, undone,
 * applied again, taken back by a restore), fed by what changes it: the run's events and the user's
 * Undo Patch (the chat host's entries), the history's Apply Again and Revert, restores to a
 * checkpoint. Every view subscribes (onDidChange): the chat's cards (chat/ChatViewProvider), the
 * history panel (history/registerHistory, which reads the outcomes the history records), the status
 * bar (patchStatusBar.ts). No view keeps a copy that the others' actions could leave stale.
 * After a window reload the store starts empty: a chat or a history run that shows a patch it does
 * not know seeds it from the history (patchSeed.ts), so an Undo or Apply Again from before the reload
 * is what every view shows.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../../core/base';
import type { RunDetail } from '../../../core/history';
import type { ReviewedPatchRef } from '../../../core/ports';
import type { ChatEntry, ToWebview } from '../../../protocol/chat';
import type { PatchStateView } from '../../../protocol/patchState';
import { PatchStateTable, type PatchChange } from './patchStateTable';
import { runsWithUnknownPatches, seedOfRun } from './patchSeed';

/** Where the recorded patches are read from: the window's history store (undefined: none open). */
export type PatchHistory = () => Promise<{ getRun(runId: string): Promise<RunDetail | undefined> } | undefined>;

type PushListener = (listener: (type: string, payload: unknown) => void) => vscode.Disposable;

export class PatchStates implements vscode.Disposable {
  private readonly table = new PatchStateTable();
  private readonly changed = new vscode.EventEmitter<PatchStateView[]>();
  private readonly disposables: vscode.Disposable[] = [this.changed];
  /** Patches whose state changed, each as it is now. */
  readonly onDidChange = this.changed.event;
  /** Runs read from the history already (each once a window: later changes come as changes). */
  private readonly seeded = new Set<string>();

  constructor(
    private readonly history?: PatchHistory,
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

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
        if (type === 'chat/snapshot') void this.knowConversation((payload as ToWebview['chat/snapshot']).entries);
      }),
    );
  }

  /**
   * A chat shows these lines (a reload, a conversation opened again): the runs whose patches the
   * store does not know are read from the history, and the views hear of their states.
   */
  async knowConversation(entries: readonly ChatEntry[]): Promise<void> {
    const runs = runsWithUnknownPatches(entries, (ref) => !!this.table.get(ref)).filter((r) => !this.seeded.has(r));
    if (!runs.length || !this.history) return;
    runs.forEach((r) => this.seeded.add(r));
    try {
      const store = await this.history();
      if (!store) return runs.forEach((r) => this.seeded.delete(r));
      for (const runId of runs) {
        const detail = await store.getRun(runId);
        if (detail) this.knowRun(detail);
      }
    } catch (err) {
      runs.forEach((r) => this.seeded.delete(r));
      this.warn(`the patch states of an earlier conversation could not be read from the history: ${errorMessage(err)}`);
    }
  }

  /** A run as the history recorded it (the history panel read it): its patches this store does not know join it. */
  knowRun(detail: Pick<RunDetail, 'run' | 'steps' | 'patches'>): void {
    this.seeded.add(detail.run.id);
    const added = this.table.seed(seedOfRun(detail));
    if (added.length) this.changed.fire(added);
  }

  noteEntry(entry: ChatEntry): void {
    if (entry.kind === 'event') this.change({ kind: 'event', event: entry.event, at: Date.now() });
    if (entry.kind === 'restore') {
      this.change({ kind: 'restored', done: entry.done });
      void this.relearnRun(entry.done.request.runId);
    }
  }

  /**
   * A restore (recorded with its run before the chat shows it, chatController.ts) of a run whose
   * patches this window knows from the history after a reload: they carry no step to place them
   * before or after the restore, so the run is read again and they take the state it records.
   */
  private async relearnRun(runId: string): Promise<void> {
    if (!this.history || !this.seeded.has(runId)) return;
    try {
      const detail = await (await this.history())?.getRun(runId);
      const changed = detail ? this.table.relearn(seedOfRun(detail)) : [];
      if (changed.length) this.changed.fire(changed);
    } catch (err) {
      this.warn(`the patch states after the restore could not be read from the history: ${errorMessage(err)}`);
    }
  }

  /**
   * Hunks decided in the diff editor's review: the proposal's record follows (`patch`: the recorded
   * patch the history's Apply Again writes again), and every view hears of it.
   */
  reviewDecided(decisions: readonly { id: string; state: 'proposed' | 'accepted' | 'rejected' }[], patch?: ReviewedPatchRef): void {
    const changed = this.table.reviewDecided(decisions, Date.now(), patch);
    if (changed.length) this.changed.fire(changed);
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
