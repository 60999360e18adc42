/**
 * The diff editor's review and the window's one store of patch states (patches/patchStates.ts), both
 * ways: a hunk accepted or rejected in the review (CodeLens, context menu, Alt+Y / Alt+N, the chat's
 * card) is the proposal's hunk state in the store, so the chat, the history and the status bar follow;
 * and a patch to a file under review that changes elsewhere (undone in the chat, applied again or
 * reverted in the history, taken back by a restore) is said in the open review, above its hunks and
 * in a warning, since its left side no longer is the file.
 */
import * as vscode from 'vscode';
import type { PatchStates } from '../patches/patchStates';
import { reviewDecisions, reviewNotice } from './hunkStates';
import type { DiffReviewServices } from './vsCodeDiffPreview';

export function followPatchStates(services: DiffReviewServices, states: PatchStates): vscode.Disposable {
  return vscode.Disposable.from(
    services.lensChanged.event(() => {
      for (const session of services.sessions.values()) states.reviewDecided(reviewDecisions(session.files, session.choices), session.request.patch);
    }),
    states.onDidChange((patches) => {
      let said = false;
      for (const session of services.sessions.values()) {
        for (const p of patches) {
          const notice = reviewNotice(session.files, p);
          if (!notice || session.notices.includes(notice)) continue;
          session.notices.push(notice);
          said = true;
          void vscode.window.showWarningMessage(`PatchPilot review: ${notice}`);
        }
      }
      if (said) services.lensChanged.fire();
    }),
  );
}
