import * as vscode from 'vscode';
import { hunkAtLine, sameText } from '../diff/diffReviewLogic';
import { parseReviewUri } from '../diff/documents';
import type { DiffReviewServices } from '../diff/vsCodeDiffPreview';

/**
 * "Accept hunk" / "Reject hunk" (the CodeLens of a proposed document). Reject asks for an optional
 * reason (Escape or an empty answer skips it). The right-hand side is recomputed by the engine, so
 * it always shows exactly what would be written. Once every hunk has a decision, the review ends.
 */
export function registerReviewHunk(context: vscode.ExtensionContext, s: DiffReviewServices): void {
  const decide = async (accepted: boolean, reviewId?: string, hunkId?: string) => {
    const session = reviewId ? s.sessions.get(reviewId) : s.reviewFor(vscode.window.activeTextEditor?.document.uri);
    if (!session) return;
    if (!hunkId) {
      // From the context menu or the palette: the hunk under the cursor of the proposed document.
      const editor = vscode.window.activeTextEditor;
      const at = editor && parseReviewUri(editor.document.uri);
      hunkId = at ? hunkAtLine(session.placements(at.path), editor.selection.active.line)?.id : undefined;
      if (!hunkId) {
        void vscode.window.showInformationMessage(
          `PatchPilot: put the cursor on a changed line of the proposal (the right side) to ${accepted ? 'accept' : 'reject'} its hunk.`,
        );
        return;
      }
    }
    let reason: string | undefined;
    if (!accepted) {
      reason = await vscode.window.showInputBox({
        title: `Reject ${hunkInWords(hunkId)}`,
        prompt: 'Why? (optional, sent to the agent; Escape or empty to skip)',
        ignoreFocusOut: true,
      });
      reason = reason?.trim() || undefined;
    }
    const typed = s.documentTexts(session);
    const edited = session.files.filter((f) => typed.has(f.path) && !sameText(typed.get(f.path)!, session.engineTexts.get(f.path) ?? null));
    const before = new Map(session.engineTexts);
    const changes = session.choose(hunkId, { accepted, ...(reason ? { reason } : {}) });
    const lost = changes.filter((c) => edited.some((f) => f.path === c.path));
    if (lost.length) {
      const keep = 'Discard my edits';
      const pick = await vscode.window.showWarningMessage(
        `You edited ${lost.map((c) => c.path).join(', ')} on the right. ${accepted ? 'Accepting' : 'Rejecting'} this hunk recomputes the proposal and discards those edits.`,
        { modal: true },
        keep,
      );
      if (pick !== keep) {
        session.choices.delete(hunkId);
        session.engineTexts = before;
        return;
      }
    }
    for (const c of changes) await s.showEngineText(session, c.path, c.after);
    s.lensChanged.fire();
    if (session.allDecided()) await s.finish(session, session.answer(s.documentTexts(session)));
  };
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.review.acceptHunk', (reviewId?: string, hunkId?: string) => decide(true, reviewId, hunkId)),
    vscode.commands.registerCommand('patchpilot.review.rejectHunk', (reviewId?: string, hunkId?: string) => decide(false, reviewId, hunkId)),
  );
}

/** `src/dates.js#2` -> "hunk 2 of src/dates.js": the user never sees the internal id. */
export function hunkInWords(id: string): string {
  const m = /^(.*)#(\d+)$/.exec(id);
  return m ? `hunk ${m[2]} of ${m[1]}` : id;
}
