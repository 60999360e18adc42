import * as vscode from 'vscode';
import type { DiffReviewServices } from '../diff/vsCodeDiffPreview';

/** Accept (diff editor title bar): the hunks not rejected, plus whatever the user typed on the right. */
export function registerReviewAccept(context: vscode.ExtensionContext, s: DiffReviewServices): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.review.accept', async (uri?: vscode.Uri) => {
      const session = s.reviewFor(uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri);
      if (!session) return void vscode.window.showInformationMessage('PatchPilot: no patch is waiting for review.');
      await s.finish(session, session.answer(s.documentTexts(session)));
    }),
  );
}
