import * as vscode from 'vscode';
import type { ChatController } from '../chat/controller/chatController';
import { CHAT_VIEW_ID, type ChatViewProvider } from '../chat/view/chatViewProvider';

export async function revealChat(provider: ChatViewProvider): Promise<void> {
  await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  provider.focusInput();
}

/** Open Chat, New Chat, Stop: small commands over the host and the view (Show History: history/registerHistory.ts). */
export function registerChatCommands(context: vscode.ExtensionContext, host: ChatController, provider: ChatViewProvider): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.openChat', () => revealChat(provider)),
    vscode.commands.registerCommand('patchpilot.newChat', async () => {
      host.newChat();
      await revealChat(provider);
    }),
    vscode.commands.registerCommand('patchpilot.stop', () => {
      if (!host.stop()) void vscode.window.showInformationMessage('PatchPilot: nothing is running.');
    }),
  );
}
