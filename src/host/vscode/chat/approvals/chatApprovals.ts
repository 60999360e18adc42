/**
 * The chat's side of asking the user: the approvals waiting in the chat (ApprovalBroker), the
 * approver the core asks for commands and patches, and the elicitor MCP servers ask for forms. Made
 * together because all three answer through the same cards.
 */
import type { DiffPreview, Elicitor } from '../../../../core/ports';
import type { ToWebview, ToWebviewType } from '../../../../protocol/chat';
import { ApprovalBroker } from './approvalBroker';
import { ChatElicitor } from './chatElicitor';
import { VsCodeElicitor } from './mcpElicitor';
import { reviewWithChatCard, type ReviewWithControls } from './reviewCard';
import { notifyIfUnfocused, type UnfocusedApprovalPorts } from './unfocusedApprovalLogic';
import { VsCodeApprover, type PatchReviewer } from './vscodeApprover';

/** The host's parts the asking uses (the controller's services hold them): the diff review, the view's visibility, the notification. */
export interface AskingPorts {
  review?: DiffPreview & { review: ReviewWithControls };
  chatVisible?: () => boolean;
  unfocusedApproval?: UnfocusedApprovalPorts;
}

export interface ChatApprovals {
  approvals: ApprovalBroker;
  approver: VsCodeApprover;
  elicitor: Elicitor;
}

export function createChatApprovals(services: AskingPorts, push: <K extends ToWebviewType>(type: K, payload: ToWebview[K]) => void): ChatApprovals {
  const approvals: ApprovalBroker = new ApprovalBroker({
    pending: (a) => {
      push('approval/pending', a);
      void notifyIfUnfocused(services.unfocusedApproval, a, (id, answer) => approvals.answer(id, answer));
    },
    resolved: (id, approved) => push('approval/resolved', { id, approved }),
    updated: (a) => push('approval/updated', a),
  });
  // Patches are reviewed in the native diff editor (per hunk, with reasons and the user's own edits);
  // the chat shows the same review as a card with Accept / Reject for the whole patch.
  const review = services.review;
  const reviewer: PatchReviewer | undefined = review
    ? (request, signal) =>
        reviewWithChatCard(
          (r, s, started) => review.review(r, s, started),
          approvals,
          { patchText: request.patchText, preview: request.preview, ...(request.patch ? { patch: request.patch } : {}) },
          signal,
        )
    : undefined;
  const chatVisible = services.chatVisible ?? (() => false);
  return {
    approvals,
    approver: new VsCodeApprover(approvals, chatVisible, reviewer),
    elicitor: new ChatElicitor(approvals, chatVisible, new VsCodeElicitor()),
  };
}
