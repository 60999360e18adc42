/**
 * The words of "PatchPilot: Approve Model Program…" (approveModelProgram.ts), apart from VS Code so
 * they are tested as they are: the modal shows the exact command bytes (protocol/exactCommand.ts)
 * and what the approval binds; a chat line is recognised as the refused model request by the core's
 * own words (core/session/modelProgramApproval.ts).
 */
import { APPROVE_MODEL_PROGRAM_VSCODE, describeModelProgramBinding, type ModelProgramCheck } from '../../../core/approvals';
import { exactLine } from '../../../protocol/exactCommand';

/** The modal's words: the exact command, and what the approval binds. */
export function approvalDialog(
  line: string,
  check: Pick<ModelProgramCheck, 'files' | 'tree' | 'reason'>,
  stateDir: string,
): { message: string; detail: string } {
  return {
    message: 'Approve the model program? It runs on your machine, outside the sandbox, at every model request.',
    detail: [
      `Command: ${exactLine(line)}`,
      describeModelProgramBinding(check, stateDir),
      ...(check.reason ? [`Now: ${check.reason.replace(/: approve it with .*$/s, '')}`] : []),
    ].join('\n\n'),
  };
}

/** Whether a chat line is the model request refused for want of an approval (the core's words, modelProgramApproval.ts). */
export function isModelProgramRefusal(text: string): boolean {
  return text.includes('was not started') && text.includes(APPROVE_MODEL_PROGRAM_VSCODE);
}
