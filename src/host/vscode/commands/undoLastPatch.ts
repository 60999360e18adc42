import * as vscode from 'vscode';
import type { PatchUndo } from '../diff/undoPatch';

/**
 * "PatchPilot: Undo Last Patch": undoes the newest patch written in this window (diff/undoPatch.ts,
 * which the chat's Undo Patch button uses too). Earlier windows' patches are in the history, with Revert.
 */
export function registerUndoLastPatch(context: vscode.ExtensionContext, undo: PatchUndo): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.undoLastPatch', async () => {
      const result = await undo.undo();
      if (result.ok) return void vscode.window.showInformationMessage(`PatchPilot: ${result.message}`);
      if (result.message.startsWith('No patch to undo')) {
        const show = 'Show History';
        const pick = await vscode.window.showInformationMessage(`PatchPilot: ${result.message}`, show);
        if (pick === show) await vscode.commands.executeCommand('patchpilot.showHistory');
        return;
      }
      void vscode.window.showWarningMessage(`PatchPilot: ${result.message}`);
    }),
  );
}
