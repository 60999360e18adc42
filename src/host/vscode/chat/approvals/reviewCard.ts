import type { PatchReviewAnswer, PatchReviewRequest } from '../../../../core/ports';
import type { ReviewControls } from '../../diff/vsCodeDiffPreview';
import type { ApprovalBroker } from './approvalBroker';

/** The diff review as the chat host sees it: VsCodeDiffPreview.review with its whole-patch controls. */
export type ReviewWithControls = (request: PatchReviewRequest, signal: AbortSignal, started: (controls: ReviewControls) => void) => Promise<PatchReviewAnswer>;

/**
 * A patch is reviewed in the native diff editor (per hunk, with reasons, the user's own edits); the
 * chat shows the same review as a card with Accept and Reject for the whole patch, so it can be
 * answered from either place. Whichever answers first ends the review; the other goes away.
 */
export async function reviewWithChatCard(
  review: ReviewWithControls,
  approvals: ApprovalBroker,
  request: PatchReviewRequest,
  signal: AbortSignal,
): Promise<PatchReviewAnswer> {
  const card = new AbortController();
  const endCard = () => card.abort();
  signal.addEventListener('abort', endCard, { once: true });
  let controls: ReviewControls | undefined;
  const answer = review(request, signal, (c) => (controls = c));
  const paths = [...new Set(request.preview.files.map((f) => f.newPath ?? f.oldPath).filter((p): p is string => !!p))];
  const states = controls?.states() ?? [];
  const hunks = states.length || request.preview.files.reduce((n, f) => n + f.hunks.length, 0);
  const perHunk = controls?.hunkButtonsHidden
    ? 'decide each with Alt+Y / Alt+N on its lines or the context menu'
    : 'each with Accept hunk / Reject hunk above it';
  let cardId: string | undefined;
  // The card's hunk list follows the decisions made in the diff editor.
  const follow = controls?.onDidChange(() => cardId && approvals.update(cardId, { hunkStates: controls!.states() }));
  card.signal.addEventListener('abort', () => follow?.dispose(), { once: true });
  void approvals
    .ask(
      {
        kind: 'patch',
        review: true,
        title: `patch to ${paths.join(', ')}`,
        reason: `Open in the diff editor: ${hunks} hunk${hunks === 1 ? '' : 's'}, ${perHunk}. Here: the whole patch (Accept takes the hunks not rejected).`,
        detail: request.patchText,
        ...(states.length ? { hunkStates: states } : {}),
        ...(controls?.hunkButtonsHidden ? { hunkButtonsHidden: true } : {}),
      },
      card.signal,
      (id) => (cardId = id),
    )
    .then((a) => {
      if (card.signal.aborted) return; // the review ended in the editor, or the run stopped
      return a.approved ? controls?.accept() : controls?.reject(a.feedback);
    });
  try {
    return await answer;
  } finally {
    signal.removeEventListener('abort', endCard);
    card.abort();
  }
}
