/**
 * An MCP server's form (elicitation, form mode) as a card in the chat: it waits in the approval
 * broker as a pending `elicitation`, so hiding or reloading the view loses nothing and a stopped run
 * removes the card and answers `cancel`. When the chat is not visible, VS Code's own inputs
 * (mcpElicitor.ts) ask as well; whichever is answered first wins. A link (URL mode) is always asked
 * by those inputs, before anything opens. No `vscode` import: the fallback comes in.
 */
import type { ElicitationRequest, ElicitationResponse, Elicitor } from '../../../../core/ports';
import { elicitationFields } from '../../../../protocol/elicitationForm';
import type { ApprovalBroker } from './approvalBroker';

export class ChatElicitor implements Elicitor {
  constructor(
    private readonly broker: Pick<ApprovalBroker, 'ask' | 'answer'>,
    private readonly chatVisible: () => boolean,
    private readonly fallback: Elicitor,
  ) {}

  async elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationResponse> {
    if (request.mode !== 'form') return this.fallback.elicit(request, signal);
    const { fields, unsupported } = elicitationFields(request.requestedSchema);
    let id: string | undefined;
    const answered = this.broker.ask(
      {
        kind: 'elicitation',
        title: `MCP server "${request.server}" asks for input`,
        reason: request.message,
        form: { server: request.server, message: request.message, fields, unsupported },
      },
      signal,
      (asked) => (id = asked),
    );
    const inputs = new AbortController();
    if (!this.chatVisible() && !signal.aborted) {
      const onAbort = () => inputs.abort();
      signal.addEventListener('abort', onAbort, { once: true });
      void this.fallback
        .elicit(request, inputs.signal)
        .then((r) => {
          if (!inputs.signal.aborted && id) this.broker.answer(id, { approved: r.action === 'accept', elicitation: r });
        })
        .catch(() => undefined)
        .finally(() => signal.removeEventListener('abort', onAbort));
    }
    const answer = await answered;
    // Answered in the chat (or the run stopped): VS Code's inputs, if open, close.
    inputs.abort();
    return answer.elicitation ?? { action: 'cancel' };
  }
}
