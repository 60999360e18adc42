import type * as vscode from 'vscode';
import { registerReviewAccept } from '../commands/reviewAccept';
import { registerReviewHunk } from '../commands/reviewHunk';
import { registerReviewReject } from '../commands/reviewReject';
import { registerUndoLastPatch } from '../commands/undoLastPatch';
import { HunkCodeLensProvider } from './hunkCodeLens';
import { diffReviewServices, registerDiffReviewProviders, type DiffReviewServices } from './vsCodeDiffPreview';

/** Once in activate(): the review's document providers, the hunk CodeLens and its commands, Undo Last Patch. */
export function registerDiffReview(context: vscode.ExtensionContext): DiffReviewServices {
  const services = registerDiffReviewProviders(context, new HunkCodeLensProvider(diffReviewServices()));
  registerReviewAccept(context);
  registerReviewReject(context);
  registerReviewHunk(context);
  registerUndoLastPatch(context);
  return services;
}
