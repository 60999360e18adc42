import * as vscode from 'vscode';
import type { ChatController } from '../chat/controller/chatController';
import { revealChat } from './chatCommands';
import type { ChatViewProvider } from '../chat/view/chatViewProvider';
import type { RunOutcome } from '../../../core/orchestrator';
import { runEndView } from '../../../protocol/runEnd';

/**
 * Run Goal: an input box, then the run in the chat (shown live) with a progress notification whose
 * Cancel stops it. In Restricted Mode nothing runs: the user is told why and offered the trust editor.
 */
export function registerRunGoal(context: vscode.ExtensionContext, host: ChatController, provider: ChatViewProvider): void {
  // A goal refused for want of a model is offered again in the next input box, not retyped.
  let unsent: string | undefined;
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.runGoal', async (goalArg?: unknown) => {
      if (!vscode.workspace.isTrusted) {
        const pick = await vscode.window.showWarningMessage(
          'PatchPilot: this workspace is in Restricted Mode, so Run Goal is off (it would run commands and change files). Ask in the chat to read and explain, or trust the workspace.',
          'Manage Workspace Trust',
          'Open Chat',
        );
        if (pick === 'Manage Workspace Trust') await vscode.commands.executeCommand('workbench.trust.manage');
        if (pick === 'Open Chat') await revealChat(provider);
        return;
      }
      const goal =
        typeof goalArg === 'string' && goalArg.trim()
          ? goalArg
          : await vscode.window.showInputBox({
              title: 'PatchPilot: Run Goal',
              prompt: 'What should PatchPilot do?',
              placeHolder: 'Fix the failing test in src/add.js',
              value: unsent,
              ignoreFocusOut: true,
            });
      if (!goal?.trim()) return;
      if (!(await newOrContinue(host))) {
        unsent = goal;
        return;
      }
      await vscode.commands.executeCommand('patchpilot.chat.focus').then(undefined, () => undefined);
      const sent = await host.send(goal);
      if (sent.delivered === 'refused') {
        unsent = goal;
        void offerWayOut(sent.reason ?? 'cannot run now', host.status().notice !== undefined);
        return;
      }
      unsent = undefined;
      if (sent.delivered === 'queued' || !sent.outcome) {
        void vscode.window.showInformationMessage('PatchPilot: a run is working; your goal reaches it at its next step.');
        return;
      }
      const outcome = sent.outcome;
      await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: 'PatchPilot', cancellable: true }, async (progress, token) => {
        progress.report({ message: goal.length > 60 ? `${goal.slice(0, 57)}...` : goal });
        token.onCancellationRequested(() => host.stop());
        const result = await outcome.catch(() => undefined);
        if (result?.status === 'failed' || result?.status === 'interrupted') void offerRetry(goal, `${result.status}: ${result.reason}`, result.failure?.kind);
        else if (result) void showRunEnd(result);
      });
    }),
  );
}

/**
 * The finished toast says how the run left the tests: a finish whose last tests failed ("finished ·
 * tests failed") is a warning, not good news; so is a run a budget or the loop guard stopped (its reason
 * names the limit and the spend).
 */
function showRunEnd(result: RunOutcome): Thenable<unknown> {
  const view = runEndView(result.status, result.tests);
  const text = `PatchPilot: ${view.label}: ${result.status === 'stopped' ? result.reason : (result.summary?.split('\n')[0] ?? result.reason)}`;
  return view.tone === 'error' ? vscode.window.showWarningMessage(text) : vscode.window.showInformationMessage(text);
}

/** A failed run: Retry runs the goal again; a server that was not reached (or refused the key) also offers the settings. */
async function offerRetry(goal: string, message: string, kind: string | undefined): Promise<void> {
  const settings = kind === 'unreachable' || kind === 'auth';
  const pick = await vscode.window.showErrorMessage(`PatchPilot: ${message}`, 'Retry', ...(settings ? ['Open Settings'] : []));
  if (pick === 'Retry') await vscode.commands.executeCommand('patchpilot.runGoal', goal);
  if (pick === 'Open Settings') await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:patchpilot.patchpilot');
}

/** The refusal with what fixes it: the model setup when one is missing (the goal waits in the next Run Goal). */
async function offerWayOut(reason: string, setupMissing: boolean): Promise<void> {
  if (!setupMissing) return void vscode.window.showWarningMessage(`PatchPilot: ${reason}`);
  const ways: Record<string, [string, ...unknown[]]> = {
    'Use Demo Model': ['patchpilot.useDemoModel'],
    'Select Model': ['patchpilot.selectModel'],
    'Set API Key': ['patchpilot.setApiKey'],
    'Open Settings': ['workbench.action.openSettings', '@ext:patchpilot.patchpilot'],
  };
  const pick = await vscode.window.showWarningMessage(`PatchPilot: ${reason} Your goal is kept for the next "Run Goal".`, ...Object.keys(ways));
  if (pick && ways[pick]) await vscode.commands.executeCommand(...ways[pick]);
}

/**
 * A goal from Run Goal is a new task, so it starts a new conversation, unless the user says it
 * continues the chat's one (asked only when the chat holds one and no run works: a goal sent during
 * a run reaches that run's next step). False: the user dismissed the question.
 */
async function newOrContinue(host: ChatController): Promise<boolean> {
  if (host.running || !host.hasConversation) return true;
  const fresh = 'Start New Conversation';
  const keep = 'Continue This Conversation';
  const pick = await vscode.window.showInformationMessage(
    'PatchPilot: start a new conversation for this goal?',
    {
      modal: true,
      detail:
        'The chat holds an earlier conversation. A new one starts clean (the earlier one stays in the history and under Open Conversation); continuing sends its turns to the model with the goal.',
    },
    fresh,
    keep,
  );
  if (pick === fresh) host.newChat();
  return pick === fresh || pick === keep;
}
