import * as vscode from 'vscode';
import { rejectAll } from '../diff/diffReviewLogic';
import type { DiffReviewServices } from '../diff/vsCodeDiffPreview';

/** Reject (diff editor title bar): nothing is written; an optional reason goes to the agent. */
export function registerReviewReject(context: vscode.ExtensionContext, s: DiffReviewServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.review.reject', async (uri?: vscode.Uri) => {
      const session = s.reviewFor(uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri);
      if (!session) return void vscode.window.showInformationMessage('PatchPilot: no patch is waiting for review.');
      const reason = await vscode.window.showInputBox({
        title: 'Reject the patch',
        prompt: 'Why? (optional, sent to the agent; Escape or empty to skip)',
        ignoreFocusOut: true,
      });
      await s.finish(session, rejectAll(reason));
    }),
  );
}
