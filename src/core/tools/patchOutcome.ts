/**
 * What became of one propose_patch call, and the one place that words it (`describePatch`): the
 * text the model reads and the data the history records (orchestrator/patchRecord.ts reads it
 * through the tool's `loop.patchOf`). The steps (patchCheck.ts, patchReview.ts, patchApply.ts) only
 * say what happened; none of them writes a sentence for the model.
 */
import type { ApplyResult, HunkResult } from '../patch/types';
import type { PolicyDecision } from '../policy/types';
import type { ApprovalMode } from '../config/settings';
import { approvalHint } from './approvalHint';
import { describeForgiven } from './patchForgiven';
import { fail, ok, type PatchData, type ToolResult } from './types';

/** The path policy's verdict on one path the patch touches. */
export interface PathVerdict {
  path: string;
  decision: PolicyDecision;
}

/** What the user said in the review (or, when nobody was asked, every hunk accepted). */
export interface PatchReview {
  /** The verdicts that made the patch ask (empty when the mode alone asked, or nothing did). */
  asks: PathVerdict[];
  accepted: string[];
  feedback?: string;
  reasons: Readonly<Record<string, string>>;
  /** The user's own version of the change, typed into the review. */
  edited?: string;
  /** Whether a person reviewed it (the patch engine's reviewed flag). */
  reviewed: boolean;
}

export type PatchOutcome =
  /** The path policy denied a path; `preview` is absent when that was known before the dry run. */
  | { kind: 'denied'; denied: PathVerdict[]; preview?: ApplyResult }
  /** The dry run refused it (a hunk that does not match), or it has no hunks. */
  | { kind: 'refused'; preview: ApplyResult }
  | { kind: 'planned'; preview: ApplyResult }
  | { kind: 'unattended'; preview: ApplyResult; why: string; asks: PathVerdict[]; mode: ApprovalMode }
  | { kind: 'rejected'; preview: ApplyResult; review: PatchReview }
  /** The user's edited version does not parse or touches files the check did not cover. */
  | { kind: 'edit-refused'; preview: ApplyResult; outside: string[]; review: PatchReview }
  /** The files changed between the dry run and the apply (an editor save): nothing was written. */
  | { kind: 'apply-failed'; preview: ApplyResult; result: ApplyResult }
  | { kind: 'applied'; preview: ApplyResult; result: ApplyResult; review: PatchReview; changed: string[]; after?: string };

/** `patch`: the text the model sent, so what the engine forgave can be quoted against it (patchForgiven.ts). */
export function describePatch(o: PatchOutcome, patch?: string): ToolResult<PatchData> {
  switch (o.kind) {
    case 'denied':
      return fail(
        `patch refused, nothing was changed:\n${o.denied.map((d) => `  ${d.path}: ${d.decision.reason}`).join('\n')}`,
        o.preview ? { preview: o.preview, denied: o.denied.map((d) => ({ path: d.path, reason: d.decision.reason })) } : undefined,
      );
    case 'refused':
      return fail(`patch refused, nothing was changed.\n${o.preview.error ?? describeRefusals(o.preview) ?? 'the patch contains no hunks'}`, {
        preview: o.preview,
      });
    case 'planned':
      return ok(`plan mode: the patch applies cleanly but was NOT applied.\n${listHunks(allHunks(o.preview))}${describeForgiven(patch, o.preview)}`, {
        preview: o.preview,
        planned: true,
      });
    case 'unattended': {
      const why = o.asks.length ? neededApproval(o.asks) : `\nIt needed approval: ${o.mode} mode asks before every patch.`;
      const hint = approvalHint(o.mode, 'edit', o.asks[0]?.decision);
      return fail(`nobody could approve the patch, so nothing was changed: ${o.why}${why}${hint ? `\n${hint}` : ''}`, {
        preview: o.preview,
        applied: [],
        unattended: true,
      });
    }
    case 'rejected': {
      const { review } = o;
      const ids = allHunks(o.preview).map((h) => h.id);
      const withReasons = ids.some((id) => review.reasons[id]) ? `\nrejected hunks:\n${hunkList(ids, review.reasons)}` : '';
      const why = review.asks.length ? neededApproval(review.asks) : '';
      return fail(`the user rejected the patch; nothing was changed.${withReasons}${userSaid(review)}${why}`, {
        preview: o.preview,
        applied: [],
        ...reasonsOf(review),
      });
    }
    case 'edit-refused':
      return fail(
        `the user's edited version could not be applied${o.outside.length ? ` (it touches ${o.outside.join(', ')})` : ''}; nothing was changed.${userSaid(o.review)}`,
        { preview: o.preview },
      );
    case 'apply-failed':
      return fail(`patch refused when applying, nothing was changed.\n${o.result.error ?? describeRefusals(o.result) ?? ''}`, {
        preview: o.preview,
        result: o.result,
      });
    case 'applied':
      return describeApplied(o, patch);
  }
}

function describeApplied(o: Extract<PatchOutcome, { kind: 'applied' }>, patch: string | undefined): ToolResult<PatchData> {
  const { review, changed, result } = o;
  const edited = review.edited;
  const applied = allHunks(result).filter((h) => h.status === 'applied');
  const rejected = edited ? allHunks(o.preview).filter((h) => !review.accepted.includes(h.id)) : allHunks(result).filter((h) => h.status === 'rejected');
  let output = edited
    ? `the user edited the change before accepting it; this is what was written to ${changed.join(', ')} (a diff from the files as they were):\n${edited.trimEnd()}`
    : `applied ${applied.length} hunk${applied.length === 1 ? '' : 's'} to ${changed.join(', ')}`;
  if (applied.length && !edited) output += `\n${listHunks(applied)}${describeForgiven(patch, o.result)}`;
  if (rejected.length)
    output += `\nrejected by the user (not applied):\n${hunkList(
      rejected.map((h) => h.id),
      review.reasons,
    )}`;
  output += userSaid(review);
  if (o.after) output += `\n\n${o.after}`;
  return ok(output, {
    preview: o.preview,
    result,
    applied: applied.map((h) => h.id),
    rejected: rejected.map((h) => h.id),
    files: changed,
    ...(edited ? { editedPatch: edited } : {}),
    ...reasonsOf(review),
  });
}

export function allHunks(r: ApplyResult): HunkResult[] {
  return r.files.flatMap((f) => f.hunks);
}

/** Every path the files name (old and new names of renames), once. */
export function touchedPaths(files: ReadonlyArray<{ oldPath: string | null; newPath: string | null }>): string[] {
  return [...new Set(files.flatMap((f) => [f.oldPath, f.newPath]).filter((p): p is string => !!p))];
}

function neededApproval(asks: PathVerdict[]): string {
  return `\nIt needed approval:\n${asks.map((d) => `  ${d.path} (${d.decision.rule}): ${d.decision.reason}`).join('\n')}`;
}

function userSaid(review: PatchReview): string {
  return review.feedback ? `\nThe user said: ${review.feedback}` : '';
}

function reasonsOf(review: PatchReview): { hunkReasons?: Record<string, string> } {
  return Object.keys(review.reasons).length ? { hunkReasons: { ...review.reasons } } : {};
}

function hunkList(ids: string[], reasons: Readonly<Record<string, string>>): string {
  return ids.map((id) => `  ${id}${reasons[id] ? `: ${reasons[id]}` : ''}`).join('\n');
}

function listHunks(hunks: HunkResult[]): string {
  return hunks
    .map((h) => {
      // Where the text is now (the model's next read or edit goes there), else where it matched.
      const where = h.newRange
        ? h.newRange.end >= h.newRange.start
          ? ` now at lines ${h.newRange.start}-${h.newRange.end}`
          : ` removed lines; the text after them now starts at line ${h.newRange.start}`
        : h.range
          ? ` at lines ${h.range.start}-${Math.max(h.range.start, h.range.end)}`
          : '';
      const how = h.strategy && h.strategy !== 'exact' ? ` (matched: ${h.strategy})` : '';
      return `  ${h.id}${where}${how}`;
    })
    .join('\n');
}

function describeRefusals(r: ApplyResult): string | undefined {
  const lines = r.files.flatMap((f) => [
    ...(f.reason ? [`${f.newPath ?? f.oldPath}: ${f.reason}`] : []),
    ...f.hunks.filter((h) => h.status === 'refused').map((h) => `${h.id}: ${h.reason ?? 'refused'}`),
  ]);
  return lines.length ? lines.join('\n') : undefined;
}
