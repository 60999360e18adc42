/**
 * "PatchPilot: Approve Model Program…": VS Code's way to approve the model program
 * (`patchpilot.llm.command`) that the CLI's `patchpilot model-program approve` offers. A program that
 * runs workspace files starts only while everything it can load from the workspace is as approved
 * (core/session/modelProgramApproval.ts); the chat then refuses the model request, and a notification
 * with a button to this command says so. The dialog is modal and shows the exact command bytes
 * (protocol/exactCommand.ts) and what the approval binds; the approval goes to the same store as the
 * CLI's (the workspace's state folder), signed with this window's user key like MCP approvals.
 */
import { realpath } from 'node:fs/promises';
import * as vscode from 'vscode';
import { errorMessage } from '../../../core/base';
import { ModelProgramApprovals } from '../../../core/approvals';
import { stateDirOf } from '../../../core/session';
import { exactLine } from '../../../protocol/exactCommand';
import { approvalDialog, isModelProgramRefusal } from './modelProgramDialog';
import type { ChatController } from '../chat/controller/chatController';
import type { HostConfig } from '../config/hostConfig';

export const APPROVE_MODEL_PROGRAM_COMMAND = 'patchpilot.approveModelProgram';
const APPROVE = 'Approve';
const OFFER = 'Approve Model Program…';

async function approveModelProgram(context: vscode.ExtensionContext, config: HostConfig): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || folder.uri.scheme !== 'file')
    return void vscode.window.showErrorMessage('Open a folder first: the model program is approved for a workspace.');
  const settings = config.settingsNow();
  const line = settings.llm.command;
  if (!line) return void vscode.window.showInformationMessage('No model program is set (patchpilot.llm.command): nothing to approve.');
  const root = await realpath(folder.uri.fsPath);
  const stateDir = stateDirOf(root, settings.history.path);
  // The same user key as the chat's check (chatWiring: the extension's global storage).
  const approvals = new ModelProgramApprovals({ root, stateDir, userStateDir: context.globalStorageUri.fsPath });
  const check = approvals.check(line);
  if (!check.tree) return void vscode.window.showInformationMessage(`The model program ${exactLine(line)} runs no workspace file: it needs no approval.`);
  const { message, detail } = approvalDialog(line, check, stateDir);
  if ((await vscode.window.showWarningMessage(message, { modal: true, detail }, APPROVE)) !== APPROVE) return;
  // Bound as the workspace is now, after the user read the dialog (not as it was when it opened).
  approvals.approve(line);
  if (approvals.persistProblem) void vscode.window.showWarningMessage(`PatchPilot: ${approvals.persistProblem}`);
  else void vscode.window.showInformationMessage('PatchPilot: the model program is approved; send the message again.');
}

export function registerApproveModelProgram(context: vscode.ExtensionContext, config: HostConfig, host: ChatController): void {
  let offering = false;
  context.subscriptions.push(
    vscode.commands.registerCommand(APPROVE_MODEL_PROGRAM_COMMAND, () =>
      approveModelProgram(context, config).catch((err: unknown) => vscode.window.showErrorMessage(`PatchPilot: ${errorMessage(err)}`)),
    ),
    // Where the chat shows the refused request: a button to the command (one offer at a time).
    host.onPush((type, payload) => {
      if (type !== 'chat/entry' || offering) return;
      const { entry } = payload as { entry: { kind: string; event?: { type?: string } } };
      if (entry.kind === 'event' && /delta$/.test(entry.event?.type ?? '')) return;
      if (!isModelProgramRefusal(JSON.stringify(entry))) return;
      offering = true;
      void vscode.window
        .showWarningMessage('PatchPilot did not start the model program: it is not approved for this workspace as it is now.', OFFER)
        .then((pick) => {
          offering = false;
          if (pick === OFFER) void vscode.commands.executeCommand(APPROVE_MODEL_PROGRAM_COMMAND);
        });
    }),
  );
}
