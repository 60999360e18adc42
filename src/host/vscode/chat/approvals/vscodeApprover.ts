import * as vscode from 'vscode';
import type { ActionApprovalAnswer, ActionApprovalRequest, Approver, PatchApprovalAnswer, PatchApprovalRequest } from '../../../../core/ports';
import type { HunkView } from '../../../../protocol/agentEvents';
import { exactLine } from '../../../../protocol/exactCommand';
import { allowPatternsFor } from './allowPatterns';
import type { ApprovalAnswer, ApprovalBroker } from './approvalBroker';

/** Reviews a patch elsewhere (ext-diff's diff editor with per-hunk accept/reject); without one the chat asks for the whole patch. */
export type PatchReviewer = (request: PatchApprovalRequest, signal: AbortSignal) => Promise<PatchApprovalAnswer>;

/**
 * Asks the user in the chat: inline Approve / Deny. When the chat is not visible, a modal asks as
 * well; whichever is answered first wins. Dismissing the modal answers nothing: the request stays
 * in the chat. Never answers by itself.
 */
export class VsCodeApprover implements Approver {
  constructor(
    private readonly broker: ApprovalBroker,
    private readonly chatVisible: () => boolean,
    readonly patchReviewer?: PatchReviewer,
  ) {}

  async approveAction(request: ActionApprovalRequest, signal: AbortSignal): Promise<ActionApprovalAnswer> {
    const allowPatterns = request.kind === 'command' ? allowPatternsFor(request.title) : [];
    return this.ask(
      { kind: request.kind, title: request.title, reason: request.reason, detail: request.detail, ...(allowPatterns.length ? { allowPatterns } : {}) },
      signal,
    );
  }

  async approvePatch(request: PatchApprovalRequest, signal: AbortSignal): Promise<PatchApprovalAnswer> {
    if (this.patchReviewer) return this.patchReviewer(request, signal);
    const hunks: HunkView[] = request.preview.files.flatMap((f) =>
      f.hunks.map((h) => ({ id: h.id, path: h.path, status: h.status, startLine: h.range?.start, endLine: h.range?.end, reason: h.reason })),
    );
    const applicable = hunks.filter((h) => h.status === 'would-apply');
    const files = [...new Set(applicable.map((h) => h.path))];
    const title = `Apply ${applicable.length} change${applicable.length === 1 ? '' : 's'} to ${files.join(', ') || 'no file'}`;
    const answer = await this.ask({ kind: 'patch', title, detail: request.patchText, hunks }, signal);
    return { acceptedHunks: answer.approved ? applicable.map((h) => h.id) : [], ...(answer.feedback ? { feedback: answer.feedback } : {}) };
  }

  private ask(request: Parameters<ApprovalBroker['ask']>[0], signal: AbortSignal): Promise<ApprovalAnswer> {
    const answer = this.broker.ask(request, signal);
    if (!this.chatVisible()) void this.modal(request, answer);
    return answer;
  }

  /** The fallback when the chat is hidden; the id of the pending request is the last one asked. */
  private async modal(request: Parameters<ApprovalBroker['ask']>[0], answered: Promise<ApprovalAnswer>): Promise<void> {
    const id = this.broker.pending.at(-1)?.id;
    if (!id) return;
    const detail = [request.reason, request.detail?.split('\n').slice(0, 30).join('\n')].filter(Boolean).join('\n\n');
    const pick = await Promise.race([
      vscode.window.showWarningMessage(`PatchPilot asks: ${exactLine(request.title)}`, { modal: true, detail }, 'Approve', 'Deny'),
      answered.then(() => undefined),
    ]);
    if (pick === 'Approve' || pick === 'Deny') this.broker.answer(id, { approved: pick === 'Approve' });
  }
}
