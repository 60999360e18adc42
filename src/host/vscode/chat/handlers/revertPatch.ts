import type { Handler } from './types';

/**
 * Revert Patch on a patch card known from the history (after a reload this window's undo journal
 * lacks the write): the history panel's Revert of the recorded patch (history/patchActions.ts).
 */
export const revertPatch: Handler<'patch/revert'> = ({ runId, patchId }, { host }) => host.revertRecordedPatch(runId, patchId);
