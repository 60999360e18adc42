/**
 * `patchpilot.notifications.approvalWhenUnfocused` (default off): when a run starts waiting for an
 * approval while the VS Code window is not focused, a notification asks as well, with Approve and
 * Deny. It answers through the same broker as the chat card, so whichever is answered first wins and
 * a later click on the other does nothing. No `vscode` import: the window's state, the setting and
 * the notification come in as functions (extension.ts), so the decision is unit-tested.
 */
import type { PendingApproval } from '../../../../protocol/chat';
import { exactLine } from '../../../../protocol/exactCommand';
import type { ApprovalAnswer } from './approvalBroker';

export interface UnfocusedApprovalPorts {
  /** The setting, read when the approval starts waiting. */
  enabled(): boolean;
  /** vscode.window.state.focused */
  focused(): boolean;
  /** vscode.window.showInformationMessage(message, ...choices) */
  notify(message: string, ...choices: string[]): PromiseLike<string | undefined>;
}

export type UnfocusedApprovalOutcome = 'not-shown' | 'approved' | 'denied' | 'dismissed' | 'answered-elsewhere';

export const APPROVE = 'Approve';
export const DENY = 'Deny';

export async function notifyIfUnfocused(
  ports: UnfocusedApprovalPorts | undefined,
  request: PendingApproval,
  answer: (id: string, answer: ApprovalAnswer) => boolean,
): Promise<UnfocusedApprovalOutcome> {
  // A server's form has no Approve / Deny: it waits in the chat (or VS Code's inputs) instead.
  if (!ports?.enabled() || ports.focused() || request.kind === 'elicitation') return 'not-shown';
  const pick = await ports.notify(`PatchPilot is waiting for your approval: ${exactLine(request.title)}`, APPROVE, DENY);
  if (pick !== APPROVE && pick !== DENY) return 'dismissed';
  const approved = pick === APPROVE;
  if (!answer(request.id, approved ? { approved } : { approved, feedback: 'denied from the notification' })) return 'answered-elsewhere';
  return approved ? 'approved' : 'denied';
}
