/**
 * Approvals asked in the chat that sent the goal: the question (the command, the write, the patch
 * as a diff, cut to fit a message) with Approve and Deny buttons. A patch is all or nothing here;
 * hunk by hunk is the diff review's job. Only the people the run names (the goal's sender, or the
 * user's `approverIds`) can answer, in that chat (Channel.ask): not anyone else in a group.
 * What runs is shown exactly (src/protocol/exactCommand.ts) and in monospace, never cut.
 */
import { ESCAPED_NOTE, renderExact } from '../../protocol/exactCommand';
import type { ActionApprovalAnswer, ActionApprovalRequest, Approver, PatchApprovalAnswer, PatchApprovalRequest } from '../ports';
import type { Channel, ChannelChoice, ChannelQuestion } from './channel';

const CHOICES: readonly ChannelChoice[] = [
  { id: 'approve', label: 'Approve' },
  { id: 'deny', label: 'Deny' },
];
const MAX_DETAIL = 2500;

/** Who is asked: the chat of the running goal and the people whose answer counts (undefined between runs). */
export interface Askee {
  chatId: string;
  answerers: ReadonlySet<string>;
}

export class ChannelApprover implements Approver {
  constructor(
    private readonly channel: Channel,
    private readonly askee: () => Askee | undefined,
  ) {}

  async approvePatch(request: PatchApprovalRequest, signal: AbortSignal): Promise<PatchApprovalAnswer> {
    const hunks = request.preview.files.flatMap((f) => f.hunks.filter((h) => h.status === 'would-apply'));
    const files = request.preview.files.map((f) => f.newPath ?? f.oldPath).join(', ');
    const question = `Apply this patch to ${files} (${hunks.length} hunk${hunks.length === 1 ? '' : 's'})?\n\n${cut(request.patchText.trimEnd())}`;
    const answer = await this.ask(question, [], signal);
    if (answer === undefined) return { acceptedHunks: [], unattended: NO_CHAT };
    return answer ? { acceptedHunks: hunks.map((h) => h.id) } : { acceptedHunks: [], feedback: DENIED };
  }

  async approveAction(request: ActionApprovalRequest, signal: AbortSignal): Promise<ActionApprovalAnswer> {
    const head = `Allow this ${request.kind}?\n`;
    const exact = renderExact(request.title);
    const tail = `${exact.escaped ? `\n(${ESCAPED_NOTE})` : ''}\n${request.reason}${request.detail ? `\n\n${cut(request.detail)}` : ''}`;
    const answer = await this.ask(`${head}${exact.text}${tail}`, [{ offset: head.length, length: exact.text.length }], signal);
    if (answer === undefined) return { approved: false, unattended: NO_CHAT };
    return answer ? { approved: true } : { approved: false, feedback: DENIED };
  }

  /** True approve, false deny, undefined when no chat is following a run. */
  private async ask(text: string, code: ChannelQuestion['code'], signal: AbortSignal): Promise<boolean | undefined> {
    const askee = this.askee();
    if (!askee) return undefined;
    const question: ChannelQuestion = { chatId: askee.chatId, text, choices: CHOICES, answerers: askee.answerers, ...(code?.length ? { code } : {}) };
    return (await this.channel.ask(question, signal)) === 'approve';
  }
}

const NO_CHAT = 'no chat is following this run to ask';
const DENIED = 'denied from the chat';

function cut(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}\n... (${text.length - MAX_DETAIL} more characters)` : text;
}
