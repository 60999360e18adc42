/**
 * Where the user left each of a run's patches: its latest Undo (UNDO_STEP) or Apply Again
 * (REAPPLY_STEP), by the undo key of the patch's reverse patch, the later one counting; and the
 * restores to a checkpoint (RESTORE_STEP) that took a written patch back, until their redo. Read by
 * the history's timeline and by the VS Code window's patch states after a reload (patches/patchSeed.ts).
 */
import { REAPPLY_STEP, UNDO_STEP, type StepRecord } from '../history/types';

/**
 * The user restored the run's files to before one of its steps (Restore to Here, in the chat or the
 * history), or redid the last such restore: arguments `{ beforeStep, redo, since }`, `since` the time
 * that step's checkpoint began (the patches written from then on are the ones it takes back).
 */
export const RESTORE_STEP = 'checkpoint/restore';

export interface UserPatchOutcome {
  undoneAt?: number;
  reappliedAt?: number;
  /** A restore took the written patch back (and no redo or later write brought it back). */
  restoredAt?: number;
}

/** A patch as the restores see it: when it was written (null: never), by its undo key. */
export interface WrittenPatch {
  undoKey: string;
  appliedAt: number | null;
}

export function patchOutcomes(steps: readonly StepRecord[], patches: readonly WrittenPatch[] = []): Map<string, UserPatchOutcome> {
  const outcomes = new Map<string, UserPatchOutcome>();
  /** Each restore not redone yet: the patches it took back, with their outcome before it. */
  const restores: Map<string, UserPatchOutcome | undefined>[] = [];
  for (const s of steps) {
    const args = s.arguments && typeof s.arguments === 'object' && !Array.isArray(s.arguments) ? s.arguments : undefined;
    if (s.tool === UNDO_STEP || s.tool === REAPPLY_STEP) {
      const key = args?.undoKey;
      if (typeof key === 'string') outcomes.set(key, s.tool === UNDO_STEP ? { undoneAt: s.time } : { reappliedAt: s.time });
    } else if (s.tool === RESTORE_STEP && args?.redo === true) {
      for (const [key, before] of restores.pop() ?? []) {
        if (outcomes.get(key)?.restoredAt === undefined) continue; // written or undone since: that is newer
        if (before) outcomes.set(key, before);
        else outcomes.delete(key);
      }
    } else if (s.tool === RESTORE_STEP && typeof args?.since === 'number') {
      restores.push(takenBack(outcomes, patches, args.since, s.time));
    }
  }
  return outcomes;
}

/** A restore at `at` to the checkpoint begun at `since`: the patches last written in between are taken back. */
function takenBack(
  outcomes: Map<string, UserPatchOutcome>,
  patches: readonly WrittenPatch[],
  since: number,
  at: number,
): Map<string, UserPatchOutcome | undefined> {
  const taken = new Map<string, UserPatchOutcome | undefined>();
  for (const p of patches) {
    const now = outcomes.get(p.undoKey);
    if (now?.undoneAt !== undefined || now?.restoredAt !== undefined) continue;
    const written = now?.reappliedAt ?? p.appliedAt;
    if (written === null || written < since || written > at) continue;
    taken.set(p.undoKey, now);
    outcomes.set(p.undoKey, { restoredAt: at });
  }
  return taken;
}
