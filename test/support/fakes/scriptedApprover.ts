// An Approver for tests: scripted answers (default: every patch and action refused), a record of the requests.
import type { ActionApprovalAnswer, ActionApprovalRequest, Approver, PatchApprovalAnswer, PatchApprovalRequest } from '../../../src/core/ports';

export class ScriptedApprover implements Approver {
  readonly patchRequests: PatchApprovalRequest[] = [];
  readonly actionRequests: ActionApprovalRequest[] = [];
  constructor(
    private readonly answers: {
      patch?: (r: PatchApprovalRequest) => PatchApprovalAnswer;
      action?: (r: ActionApprovalRequest) => ActionApprovalAnswer;
    } = {},
  ) {}
  async approvePatch(request: PatchApprovalRequest): Promise<PatchApprovalAnswer> {
    this.patchRequests.push(request);
    return this.answers.patch?.(request) ?? { acceptedHunks: [] };
  }
  async approveAction(request: ActionApprovalRequest): Promise<ActionApprovalAnswer> {
    this.actionRequests.push(request);
    return this.answers.action?.(request) ?? { approved: false };
  }
}
