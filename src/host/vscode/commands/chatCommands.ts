import * as vscode from 'vscode';
import type { AgentHost } from '../agent/agentHost';
import { CHAT_VIEW_ID, type ChatViewProvider } from '../chat/chatViewProvider';

export async function revealChat(provider: ChatViewProvider): Promise<void> {
  await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  provider.focusInput();
}

/** Open Chat, New Chat, Stop, Show History: small commands over the host and the view. */
export function registerChatCommands(context: vscode.ExtensionContext, host: AgentHost, provider: ChatViewProvider): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.openChat', () => revealChat(provider)),
    vscode.commands.registerCommand('patchpilot.newChat', async () => {
      host.newChat();
      await revealChat(provider);
    }),
    vscode.commands.registerCommand('patchpilot.stop', () => {
      if (!host.stop()) void vscode.window.showInformationMessage('PatchPilot: nothing is running.');
    }),
    vscode.commands.registerCommand('patchpilot.showHistory', async () => {
      // No history view yet: say so rather than show something made up. The CLI reads the same store.
      const pick = await vscode.window.showInformationMessage(
        'PatchPilot: a history view is coming. Every run is recorded in the workspace (.patchpilot/history.db); `patchpilot history list` shows them today.',
        'Open Chat',
      );
      if (pick) await revealChat(provider);
    }),
  );
}
