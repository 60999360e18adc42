/**
 * Approvals waiting for the user. A request stays here until the user answers it (in the chat or
 * in the modal fallback) or its run ends: hiding or reloading the view loses nothing, the view
 * asks for `pending` again. Nothing here answers on the user's behalf. No `vscode` import.
 */
import type { PendingApproval } from '../../../../protocol/chat';
import type { ElicitationAnswer } from '../../../../protocol/elicitationForm';

export interface ApprovalAnswer {
  approved: boolean;
  feedback?: string;
  /** An MCP server's form (kind `elicitation`): the user's answer; absent when the run stopped (the server hears `cancel`). */
  elicitation?: ElicitationAnswer;
}

interface Waiting {
  request: PendingApproval;
  resolve(answer: ApprovalAnswer): void;
}

export class ApprovalBroker {
  private readonly waiting = new Map<string, Waiting>();
  private next = 1;

  constructor(
    private readonly listener: { pending(a: PendingApproval): void; resolved(id: string, approved: boolean): void; updated?(a: PendingApproval): void },
  ) {}

  get pending(): PendingApproval[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  /**
   * Waits for the user's answer. An aborted run (Stop) ends the wait as a denial that says so; the
   * run is over anyway and nothing runs after it.
   */
  ask(request: Omit<PendingApproval, 'id'>, signal: AbortSignal, asked?: (id: string) => void): Promise<ApprovalAnswer> {
    const id = `a${this.next++}`;
    asked?.(id);
    const full: PendingApproval = { ...request, id };
    return new Promise((resolve) => {
      const done = (answer: ApprovalAnswer) => {
        if (!this.waiting.delete(id)) return;
        signal.removeEventListener('abort', onAbort);
        this.listener.resolved(id, answer.approved);
        resolve(answer);
      };
      const onAbort = () => done({ approved: false, feedback: 'the run was stopped' });
      this.waiting.set(id, { request: full, resolve: done });
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.listener.pending(full);
    });
  }

  /** The user's answer; false when nothing waits under that id (answered already, forged). */
  answer(id: string, answer: ApprovalAnswer): boolean {
    const w = this.waiting.get(id);
    if (!w) return false;
    w.resolve(answer);
    return true;
  }

  /** A waiting request changed (its hunks' states): the views redraw its card. */
  update(id: string, changes: Partial<Omit<PendingApproval, 'id' | 'kind'>>): void {
    const w = this.waiting.get(id);
    if (!w) return;
    w.request = { ...w.request, ...changes };
    this.listener.updated?.(w.request);
  }

  /** The request waiting under that id, if any. */
  request(id: string): PendingApproval | undefined {
    return this.waiting.get(id)?.request;
  }

  has(id: string): boolean {
    return this.waiting.has(id);
  }
}
