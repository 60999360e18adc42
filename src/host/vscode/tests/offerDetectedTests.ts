import * as vscode from 'vscode';
import type { PatchPilotSettings } from '../../../core/config/settings';
import { errorMessage } from '../../../core/base/errors';
import { answerOf, detectTestCommand, diskProbe, shouldOfferTests, testOfferButtons, type TestOfferAnswer } from '../../../core/workspace';

/** workspaceState key of the user's answer to the offer (per workspace: another project asks again). */
export const TEST_OFFER_STATE = 'patchpilot.tests.detectedOffer';

/**
 * With no patchpilot.tests.commands, offer the project's own test command (npm test, cargo test...)
 * once, as a notification whose first button is "Use <command>": it writes the workspace setting, so
 * the command is then a configured test command like any other (the same policy, sandbox and
 * approvals). Nothing is offered or run in Restricted Mode; trust granted later brings the offer.
 */
export function registerDetectedTestsOffer(context: vscode.ExtensionContext, settingsNow: () => PatchPilotSettings, log: vscode.LogOutputChannel): void {
  let asking = false;
  const offer = async (): Promise<void> => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (asking || !folder || folder.uri.scheme !== 'file') return;
    asking = true;
    try {
      const detected = vscode.workspace.isTrusted ? await detectTestCommand(diskProbe(folder.uri.fsPath)) : undefined;
      const remembered = context.workspaceState.get<TestOfferAnswer>(TEST_OFFER_STATE);
      if (!shouldOfferTests({ trusted: vscode.workspace.isTrusted, configured: settingsNow().tests.commands, remembered, detected }) || !detected) return;
      const buttons = testOfferButtons(detected);
      const pick = await vscode.window.showInformationMessage(`PatchPilot found this project's tests: "${detected.command}" (from ${detected.source}). Run it after every edit the agent makes?`, ...buttons);
      const answer = answerOf(detected, pick);
      if (!answer) return;
      if (answer.answer === 'used') await vscode.workspace.getConfiguration('patchpilot', folder.uri).update('tests.commands', [detected.command], vscode.ConfigurationTarget.Workspace);
      await context.workspaceState.update(TEST_OFFER_STATE, answer);
    } catch (err) {
      log.warn(`the detected test command was not offered: ${errorMessage(err)}`);
    } finally {
      asking = false;
    }
  };
  context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => void offer()));
  void offer();
}
