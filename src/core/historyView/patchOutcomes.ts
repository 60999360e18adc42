/**
 * Where the user left each of a run's patches: its latest Undo (UNDO_STEP) or Apply Again
 * (REAPPLY_STEP), by the undo key of the patch's reverse patch; the later one counts. Read by the
 * history's timeline and by the VS Code window's patch states after a reload (patches/patchSeed.ts).
 */
import { REAPPLY_STEP, UNDO_STEP, type StepRecord } from '../history/types';

export interface UserPatchOutcome {
  undoneAt?: number;
  reappliedAt?: number;
}

export function patchOutcomes(steps: readonly StepRecord[]): Map<string, UserPatchOutcome> {
  const outcomes = new Map<string, UserPatchOutcome>();
  for (const s of steps) {
    const key =
      (s.tool === UNDO_STEP || s.tool === REAPPLY_STEP) && s.arguments && typeof s.arguments === 'object' && !Array.isArray(s.arguments)
        ? s.arguments.undoKey
        : undefined;
    if (typeof key === 'string') outcomes.set(key, s.tool === UNDO_STEP ? { undoneAt: s.time } : { reappliedAt: s.time });
  }
  return outcomes;
}
