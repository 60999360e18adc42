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
  // Each patch's state as last heard: a notice is for a state that moved, not for a patch read from
  // the history (seeded, as it already was) nor for a hunk decided without a new state.
  const seen = new Map(states.all().map((p) => [p.key, p.state]));
  return vscode.Disposable.from(
    services.lensChanged.event(() => {
      for (const session of services.sessions.values()) states.reviewDecided(reviewDecisions(session.files, session.choices), session.request.patch);
    }),
    states.onDidChange((patches) => {
      let said = false;
      const moved = patches.filter((p) => {
        const before = seen.get(p.key);
        seen.set(p.key, p.state);
        return before !== undefined && before !== p.state;
      });
      for (const session of services.sessions.values()) {
        // Apply Again's review is of this very patch: its own write is not news to it.
        const own = session.request.patch;
        for (const p of moved) {
          if (own && p.runId === own.runId && p.patchId === own.patchId) continue;
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
