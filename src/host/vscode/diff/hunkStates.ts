/**
 * Each hunk of a review and the user's decision so far, in words (no `vscode` import; unit-tested):
 * what the chat's review card lists, the diff editor's decorations say on hover, and the status bar sums up.
 */
import type { ReviewHunkView } from '../../../protocol/chat';
import type { PatchStateView } from '../../../protocol/patchState';
import type { HunkChoice, ReviewFile } from './diffReviewLogic';

export function hunkStates(files: readonly ReviewFile[], choices: ReadonlyMap<string, HunkChoice>): ReviewHunkView[] {
  const all = files.flatMap((f) => f.hunks.map((h) => ({ f, h })));
  return all.map(({ f, h }, i) => {
    const c = choices.get(h.id);
    const lines = h.oldEnd >= h.oldStart ? (h.oldEnd > h.oldStart ? `lines ${h.oldStart}-${h.oldEnd}` : `line ${h.oldStart}`) : `after line ${h.oldStart - 1}`;
    return {
      id: h.id,
      label: `Hunk ${i + 1} of ${all.length} in ${f.path}, ${lines}`,
      state: c ? (c.accepted ? 'accepted' : 'rejected') : 'undecided',
      ...(c?.reason ? { reason: c.reason } : {}),
    };
  });
}

/** "1 accepted, 1 rejected, 1 undecided": the review's state in one line. */
export function reviewSummary(states: readonly ReviewHunkView[]): string {
  const n = (s: ReviewHunkView['state']) => states.filter((x) => x.state === s).length;
  const parts = [`${n('accepted')} accepted`, `${n('rejected')} rejected`, `${n('undecided')} undecided`].filter((p) => !p.startsWith('0 '));
  return `${states.length} hunk${states.length === 1 ? '' : 's'}: ${parts.join(', ') || 'none'}`;
}

/** Each hunk of a review as the window's patch states word it: accepted, rejected, or not decided yet (proposed). */
export function reviewDecisions(
  files: readonly ReviewFile[],
  choices: ReadonlyMap<string, HunkChoice>,
): { id: string; state: 'proposed' | 'accepted' | 'rejected' }[] {
  return files.flatMap((f) =>
    f.hunks.map((h) => {
      const c = choices.get(h.id);
      return { id: h.id, state: c ? (c.accepted ? 'accepted' : 'rejected') : 'proposed' };
    }),
  );
}

const MOVED: ReadonlySet<PatchStateView['state']> = new Set(['undone', 'reapplied', 'restored-away']);

/** What an open review says about a patch to its files that changed elsewhere (undone in the chat, ...); nothing when it touches none of them. */
export function reviewNotice(files: readonly ReviewFile[], p: PatchStateView): string | undefined {
  if (!MOVED.has(p.state)) return undefined;
  const touched = p.files.filter((f) => files.some((s) => s.path === f));
  if (!touched.length) return undefined;
  return `The patch to ${touched.join(', ')} was ${p.words.replace(/:.*$/, '')} since this review opened: its left side shows the file as it was then. Reject and ask again to review against the file as it is now.`;
}
