import type { ApplyResult } from '../patch/types';
import type { PatchApprovalAnswer } from './approver';

/**
 * Shows a patch to the user before (or after) it is written. VS Code: the native diff editor per
 * file (left: the current text, unsaved edits included; right: the dry run's result, editable),
 * Accept/Reject in the title bar and per-hunk CodeLens. The answer is the Approver's patch answer.
 */
export interface PatchReviewRequest {
  patchText: string;
  /** The PatchManager's dry run (`dryRun: true`): files with oldText/newText and hunks with ids. */
  preview: ApplyResult;
  /** One line naming the change ("apply a patch to src/a.ts"). */
  title?: string;
  /** A recorded patch written again (the history's Apply Again): the review's decisions are that patch's. */
  patch?: ReviewedPatchRef;
}

/**
 * The recorded patch a review writes again, so the hunks decided in the review are that patch's
 * (not the newest proposal's with the same hunk ids).
 */
export interface ReviewedPatchRef {
  runId: string;
  patchId: string;
  /** The review's hunk id → the recorded patch's (what is written again is a new diff, its hunks numbered afresh). */
  hunkIds: Readonly<Record<string, string>>;
}

/** The user's word on one hunk. */
export interface HunkDecision {
  id: string;
  accepted: boolean;
  /** Why it was rejected (optional; Escape or an empty answer gives none). */
  reason?: string;
}

/** acceptedHunks, per-hunk reasons, feedback and the user's own edits as an editedPatch. */
export type PatchReviewAnswer = PatchApprovalAnswer;

export interface DiffPreview {
  /** Waits for Accept or Reject; an aborted signal closes the review and rejects everything. */
  review(request: PatchReviewRequest, signal: AbortSignal): Promise<PatchReviewAnswer>;
  /** After a patch was written without asking (auto-edit): shows what changed, read-only. */
  showApplied(result: ApplyResult): Promise<void>;
}
