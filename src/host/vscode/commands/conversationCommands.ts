import * as vscode from 'vscode';
import { errorMessage } from '../../../core/base';
import type { ChatController } from '../chat/controller/chatController';
import { loadConversation, recentConversations } from '../chat/persistence/conversations';
import type { ChatViewProvider } from '../chat/view/chatViewProvider';
import { revealChat } from './chatCommands';

/**
 * Open Conversation: an earlier chat from the history store becomes the chat, to continue it. With a
 * run id (the history panel's "Continue in Chat") that run's conversation; without, a pick of the
 * recent ones. Returns whether it opened.
 */
export function registerConversationCommands(context: vscode.ExtensionContext, host: ChatController, provider: ChatViewProvider): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('patchpilot.openConversation', async (runIdArg?: unknown): Promise<boolean> => {
      if (host.running) {
        void vscode.window.showInformationMessage('PatchPilot: a run is working. Stop it or wait for its end, then open the conversation.');
        return false;
      }
      try {
        const store = await host.historyStore();
        if (!store) {
          void vscode.window.showInformationMessage('PatchPilot: no history is recorded in this workspace.');
          return false;
        }
        let runId = typeof runIdArg === 'string' && runIdArg ? runIdArg : undefined;
        if (!runId) {
          const items = (await recentConversations(store, 20)).map((c) => ({
            label: c.title,
            description: `${new Date(c.when).toLocaleString()} · ${c.turns} message${c.turns === 1 ? '' : 's'} · ${c.status}`,
            runId: c.runId,
          }));
          if (!items.length) {
            void vscode.window.showInformationMessage('PatchPilot: no earlier conversations are recorded in this workspace.');
            return false;
          }
          runId = (await vscode.window.showQuickPick(items, { title: 'PatchPilot: Open Conversation', placeHolder: 'Continue which conversation?' }))?.runId;
          if (!runId) return false;
        }
        host.continueConversation(await loadConversation(store, runId));
        await revealChat(provider);
        return true;
      } catch (err) {
        void vscode.window.showErrorMessage(`PatchPilot: the conversation could not be opened: ${errorMessage(err)}`);
        return false;
      }
    }),
  );
}
