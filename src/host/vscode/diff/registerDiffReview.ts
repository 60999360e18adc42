import * as vscode from 'vscode';
import { registerHunkFeedback } from './hunkFeedback';
import { registerReviewAccept } from '../commands/reviewAccept';
import { registerReviewHunk } from '../commands/reviewHunk';
import { registerReviewReject } from '../commands/reviewReject';
import { registerUndoLastPatch } from '../commands/undoLastPatch';
import { HunkCodeLensProvider } from './hunkCodeLens';
import type { PatchUndo } from './undoPatch';
import { registerDiffReviewProviders, showHunkButtons, type DiffReviewServices } from './vsCodeDiffPreview';

/** Once in activate(): the review's document providers, the hunk CodeLens, decorations and commands, Undo Last Patch. */
export function registerDiffReview(context: vscode.ExtensionContext, services: DiffReviewServices, undo: PatchUndo): void {
  registerDiffReviewProviders(context, services, new HunkCodeLensProvider(services));
  registerReviewAccept(context, services);
  registerReviewReject(context, services);
  registerReviewHunk(context, services);
  registerHunkFeedback(context, services);
  context.subscriptions.push(vscode.commands.registerCommand('patchpilot.review.showHunkButtons', showHunkButtons));
  registerUndoLastPatch(context, undo);
}
