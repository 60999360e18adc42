/**
 * Restore and redo, as the CLI and the host call them: plan, write (or refuse), remember how to
 * redo, and leave the agent a note for its next turn.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { removeConfined, writeFileConfined } from '../fs/confinedWrite';
import type { CheckpointStore } from './checkpointStore';
import { applyRestore, type RestoreResult } from './restoreApply';
import { currentState, planRestore, type RestoreItem, type RestorePlan } from './restorePlan';
import { restoreNote } from './restoreView';
import { sameState } from './checkpointer';

export { planRestore };

/** Resolves `last` (the run whose checkpoints were written last) or checks that the run has checkpoints. */
export function resolveRun(store: CheckpointStore, run: string): string {
  const runs = store.runs();
  if (run === 'last') {
    const last = runs[0];
    if (!last) throw new Error('no run in this workspace has checkpoints');
    return last.runId;
  }
  if (runs.some((r) => r.runId === run)) return run;
  // A unique prefix is enough, as in `patchpilot history show`.
  const matches = runs.filter((r) => r.runId.startsWith(run));
  if (matches.length === 1) return matches[0]!.runId;
  throw new Error(
    matches.length > 1 ? `run ${run} is ambiguous: ${matches.map((m) => m.runId).join(', ')}` : `run ${run} has no checkpoints in this workspace`,
  );
}

/** Writes the plan; on success keeps a redo record and a note for the agent. */
export function restore(store: CheckpointStore, root: string, plan: RestorePlan, options: { restoreRest?: boolean } = {}): RestoreResult {
  const result = applyRestore(store, root, plan, options);
  if (!result.ok) return result;
  const done = plan.items.filter((i) => result.restored.includes(i.path));
  writeFileConfined(store.root, redoFile(store), JSON.stringify({ runId: plan.runId, beforeStep: plan.beforeStep, items: done }));
  store.addNote(restoreNote(plan, result.restored));
  return result;
}

/** Plans undoing the last restore (its files back as the run had left them), or undefined when there is none. */
export function planRedo(store: CheckpointStore, root: string): RestorePlan | undefined {
  let saved: { runId: string; beforeStep: number; items: RestoreItem[] };
  try {
    saved = JSON.parse(readFileSync(redoFile(store), 'utf8')) as typeof saved;
  } catch {
    return undefined;
  }
  const items: RestoreItem[] = [];
  const blocked: RestorePlan['blocked'] = [];
  for (const i of saved.items) {
    const now = currentState(root, i.path);
    if (!sameState(now, i.target)) blocked.push({ path: i.path, reason: 'changed since the restore; redoing would lose that change' });
    else items.push({ path: i.path, current: now, target: i.current });
  }
  return { runId: saved.runId, beforeStep: saved.beforeStep, steps: [], items, blocked };
}

export function redo(store: CheckpointStore, root: string, plan: RestorePlan, options: { restoreRest?: boolean } = {}): RestoreResult {
  const result = applyRestore(store, root, plan, options);
  if (result.ok) {
    removeConfined(store.root, redoFile(store));
    store.addNote(
      `PatchPilot: the user redid what run ${plan.runId} changed from step ${plan.beforeStep} on (the earlier restore was undone): ${result.restored.join(', ')}.`,
    );
  }
  return result;
}

function redoFile(store: CheckpointStore): string {
  return path.join(store.dir, 'redo.json');
}
