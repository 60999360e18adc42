/**
 * A patch's state as every view shows it (the chat's card, the history's patch, the status bar):
 * one record from the host's store (src/host/vscode/patches/patchStates.ts), pushed when it changes.
 * Zero imports: the webviews bundle this file as is.
 */

/** Where a patch stands now. */
export type PatchLifecycle = 'proposed' | 'applied' | 'partially-applied' | 'refused' | 'undone' | 'reapplied' | 'restored-away';

export interface PatchStateView {
  /** `runId/patchId` when the run recorded the patch, else its undo key. */
  key: string;
  runId?: string;
  /** The history's id of the patch (PatchRecord.id, the events' patchId). */
  patchId?: string;
  /** The write's name for Undo Patch (the events' undoKey); absent until written. */
  undoKey?: string;
  files: string[];
  state: PatchLifecycle;
  /** Each hunk as of the patch's last write or proposal (`accepted`: chosen in the review, not written yet). */
  hunks: { id: string; state: 'proposed' | 'accepted' | 'applied' | 'rejected' | 'refused' }[];
  /** When the state last changed (ms since the epoch). */
  at: number;
  /** The state in words ("applied again by you"). */
  words: string;
  /** Undo Patch can be offered: it is written and the window has its undo key. */
  canUndo: boolean;
  /**
   * Revert Patch can be offered instead: written, recorded with its run, and known from the history
   * (a reload), so this window's undo journal lacks it. It is the history panel's Revert: the recorded
   * reverse patch, reviewed as that one is, refused with the reason when the files changed since.
   */
  canRevert: boolean;
}
