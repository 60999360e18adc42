/**
 * propose_patch's third step: the engine writes what the review accepted (or the user's edited
 * version), the run learns which files changed, and the after-write hook runs (auto-commit, tests
 * after an edit); its report goes with the outcome.
 */
import type { PatchEngine } from '../ports';
import type { CheckedPatch } from './patchCheck';
import { undoKeyOf } from '../patch/undoKey';
import { allHunks, touchedPaths, type PatchOutcome, type PatchReview } from './patchOutcome';
import type { ToolContext } from './types';

export async function applyPatch(patch: string, checked: CheckedPatch, review: PatchReview, ctx: ToolContext, engine: PatchEngine): Promise<PatchOutcome> {
  const { preview } = checked;
  const { reviewed, edited } = review;
  await ctx.state.beforeFirstChange?.();
  ctx.state.beforeWrite?.(touchedPaths(preview.files));
  const result = edited ? await engine.apply(edited, { reviewed }) : await engine.apply(patch, { acceptedHunks: new Set(review.accepted), reviewed });
  // The files changed between the preview and the apply (an editor save): the engine wrote nothing.
  if (!result.ok) return { kind: 'apply-failed', preview, result };
  const changed = touchedPaths(result.files.filter((f) => f.status === 'ok' && (f.hunks.length === 0 || f.hunks.some((h) => h.status === 'applied'))));
  for (const p of changed) ctx.state.changedFiles.add(p);
  ctx.emit?.({
    type: 'patch-applied',
    files: changed,
    hunks: allHunks(result).filter((h) => h.status === 'applied'),
    total: allHunks(preview).length,
    edited: !!edited,
    ...(result.reversePatch.trim() ? { undoKey: undoKeyOf(result.reversePatch) } : {}),
  });
  const after = await ctx.state.afterWrite?.(changed, `patch to ${changed.join(', ')}`);
  return { kind: 'applied', preview, result, review, changed, ...(after ? { after } : {}) };
}
