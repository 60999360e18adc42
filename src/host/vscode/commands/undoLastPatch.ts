import * as vscode from 'vscode';
import { changedSince } from '../diff/patchJournal';
import type { PatchJournal } from '../diff/patchJournal';
import type { PatchPlanner } from '../../../core/patch/planner';
import { PatchManager } from '../../../core/patch/patchManager';
import { VsCodeWorkspaceFs } from '../workspace/vsCodeWorkspaceFs';

/**
 * "PatchPilot: Undo Last Patch": applies the last patch's reverse patch through a WorkspaceEdit.
 * When the user changed those lines since, the reverse no longer matches exactly: warn, and undo
 * only if it still applies and the user says so.
 */
export function registerUndoLastPatch(context: vscode.ExtensionContext, journal: PatchJournal, planner: PatchPlanner): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.undoLastPatch', async () => {
      if (!vscode.workspace.isTrusted) return void vscode.window.showWarningMessage('PatchPilot writes files only in a trusted workspace.');
      const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      const entry = journal.peek();
      if (!root) return void vscode.window.showInformationMessage('PatchPilot: open the workspace folder the patch belongs to.');
      if (!entry) {
        // The journal lives as long as the window; earlier windows' patches are in the history, with Revert.
        const show = 'Show History';
        void vscode.window
          .showInformationMessage('PatchPilot: no patch to undo in this window. Patches from before a reload can be reverted from the history.', show)
          .then((pick) => (pick === show ? vscode.commands.executeCommand('patchpilot.showHistory') : undefined));
        return;
      }
      const fs = new VsCodeWorkspaceFs(root);
      const manager = new PatchManager({ root, fs, planner });
      const current = new Map<string, string | null>();
      for (const p of entry.after.keys()) {
        const st = await fs.stat(p).catch(() => ({ exists: false as const }));
        current.set(p, st.exists ? Buffer.from(await fs.readFile(p)).toString('utf8') : null);
      }
      const touched = changedSince(entry, current);
      const dry = await manager.apply(entry.reversePatch, { dryRun: true });
      const inexact = dry.files
        .flatMap((f) => f.hunks)
        .filter((h) => h.strategy && h.strategy !== 'exact' && h.strategy !== 'create' && h.strategy !== 'delete');
      if (!dry.ok) {
        journal.pop();
        return void vscode.window.showWarningMessage(
          `PatchPilot: cannot undo the patch to ${entry.label}: you changed those lines since. ${dry.error ?? ''}`.trim(),
        );
      }
      if (inexact.length) {
        const go = 'Undo Anyway';
        const pick = await vscode.window.showWarningMessage(
          `You changed lines of ${touched.join(', ') || entry.label} that the patch wrote. Undo anyway?`,
          { modal: true },
          go,
        );
        if (pick !== go) return;
      }
      const result = await manager.apply(entry.reversePatch, {});
      if (!result.ok) return void vscode.window.showErrorMessage(`PatchPilot: undo failed: ${result.error ?? 'unknown error'}`);
      journal.pop();
      void vscode.window.showInformationMessage(`PatchPilot: undid the patch to ${entry.label}.`);
    }),
  );
}
