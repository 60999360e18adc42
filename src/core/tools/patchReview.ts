/**
 * propose_patch's second step: the review. In ask mode, or when the policy asks for a path, the
 * user sees the per-hunk preview and answers (hunks accepted, reasons, feedback, their own edited
 * version); otherwise every hunk is accepted unasked. Ends the call (a PatchOutcome) when nobody
 * could answer, the user rejected everything, or their edited version cannot be applied.
 */
import { parsePatch } from '../patch/parse';
import type { CheckedPatch } from './patchCheck';
import { touchedPaths, type PatchOutcome, type PatchReview } from './patchOutcome';
import type { ToolContext } from './types';

export async function reviewPatch(patch: string, checked: CheckedPatch, ctx: ToolContext): Promise<PatchReview | PatchOutcome> {
  const { preview, paths } = checked;
  const asks = checked.decisions.filter((d) => d.decision.verdict === 'ask');
  const all = checked.hunks.map((h) => h.id);
  const asked = await ctx.ask.patch({ patchText: patch, preview, title: `apply a patch to ${paths.join(', ')}`, hunks: all, policyAsks: asks.length > 0 });
  if ('unasked' in asked) return { asks, accepted: all, reasons: {}, reviewed: false };
  if ('unattended' in asked) return { kind: 'unattended', preview, why: asked.unattended, asks, mode: asked.mode };
  const { answer } = asked;
  const known = new Set(all);
  const accepted = answer.acceptedHunks.filter((id) => known.has(id));
  const reasons = answer.hunkReasons ?? {};
  const edited = answer.editedPatch?.trim() ? answer.editedPatch : undefined;
  const rejected = all.filter((id) => !accepted.includes(id)).map((id) => (reasons[id] ? { id, reason: reasons[id] } : { id }));
  ctx.emit?.({
    type: 'approval-answered',
    kind: 'patch',
    approved: accepted.length > 0 || !!edited,
    accepted,
    total: known.size,
    ...(rejected.length ? { rejected } : {}),
    ...(edited ? { edited: true } : {}),
  });
  const review: PatchReview = {
    asks,
    accepted,
    reasons,
    reviewed: true,
    ...(answer.feedback ? { feedback: answer.feedback } : {}),
    ...(edited ? { edited } : {}),
  };
  if (accepted.length === 0 && !edited) return { kind: 'rejected', preview, review };
  if (edited) {
    // The user's own version of the change is what gets written; it may only touch the files already checked.
    const parsed = parsePatch(edited);
    const outside = parsed.ok ? touchedPaths(parsed.value.files).filter((p) => !paths.includes(p)) : [];
    if (!parsed.ok || outside.length) return { kind: 'edit-refused', preview, outside, review };
  }
  return review;
}
