import * as vscode from 'vscode';
import { PatchManager } from '../../../core/patch';
import type { PatchPlanner } from '../../../core/patch';
import { VsCodeWorkspaceFs } from '../workspace/vsCodeWorkspaceFs';
import type { OwnSaves } from '../workspace/ownSaves';
import { changedSince, type JournalEntry, type PatchJournal } from './patchJournal';

export interface UndoResult {
  ok: boolean;
  message: string;
}

/**
 * Undoes a patch written in this window (Undo Last Patch in the palette, Undo Patch on the chat's
 * patch item): its reverse patch through a WorkspaceEdit. When the user changed those lines since,
 * the reverse no longer matches exactly: a modal asks before it is applied anyway; when it no longer
 * applies at all, nothing is written. A done undo is announced through the journal (onDidUndo).
 */
export class PatchUndo {
  constructor(
    private readonly journal: PatchJournal,
    private readonly planner: PatchPlanner,
    private readonly ownSaves?: OwnSaves,
  ) {}

  /** The newest patch (no key) or the one filed under `key`. */
  async undo(key?: string): Promise<UndoResult> {
    if (!vscode.workspace.isTrusted) return { ok: false, message: 'PatchPilot writes files only in a trusted workspace.' };
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (!root) return { ok: false, message: 'Open the workspace folder the patch belongs to.' };
    const entry = key ? this.journal.find(key) : this.journal.peek();
    if (!entry)
      return {
        ok: false,
        message: key
          ? 'This patch was written before the window reloaded (or was undone already): revert it from the history (PatchPilot: Show History).'
          : 'No patch to undo in this window. Patches from before a reload can be reverted from the history.',
      };
    return this.undoEntry(root, entry);
  }

  private async undoEntry(root: string, entry: JournalEntry): Promise<UndoResult> {
    const fs = new VsCodeWorkspaceFs(root, this.ownSaves);
    const manager = new PatchManager({ root, fs, planner: this.planner });
    const current = new Map<string, string | null>();
    for (const p of entry.after.keys()) {
      const st = await fs.stat(p).catch(() => ({ exists: false as const }));
      current.set(p, st.exists ? Buffer.from(await fs.readFile(p)).toString('utf8') : null);
    }
    const touched = changedSince(entry, current);
    const dry = await manager.apply(entry.reversePatch, { dryRun: true });
    if (!dry.ok) {
      this.journal.remove(entry);
      return { ok: false, message: `Cannot undo the patch to ${entry.label}: you changed those lines since. ${dry.error ?? ''}`.trim() };
    }
    const inexact = dry.files.flatMap((f) => f.hunks).filter((h) => h.strategy && h.strategy !== 'exact' && h.strategy !== 'create' && h.strategy !== 'delete');
    if (inexact.length) {
      const go = 'Undo Anyway';
      const pick = await vscode.window.showWarningMessage(
        `You changed lines of ${touched.join(', ') || entry.label} that the patch wrote. Undo anyway?`,
        { modal: true },
        go,
      );
      if (pick !== go) return { ok: false, message: `The patch to ${entry.label} stays in place.` };
    }
    const result = await manager.apply(entry.reversePatch, {});
    if (!result.ok) return { ok: false, message: `Undo failed: ${result.error ?? 'unknown error'}` };
    this.journal.markUndone(entry);
    return { ok: true, message: `Undid the patch to ${entry.label}.` };
  }
}
