import * as vscode from 'vscode';
import type { ChatStatus, ToWebview } from '../../../protocol/chat';
import type { ChatController } from '../chat/controller/chatController';

/**
 * The context keys the "Get started" walkthrough completes on (package.json, walkthroughs): its steps
 * tick on the real event, not on a button press. A model is ready when the chat's status names one
 * and nothing is missing (endpoint, key); a goal ran when a run started.
 */
export function registerWalkthroughContext(context: vscode.ExtensionContext, host: ChatController): void {
  let ready = false;
  let ran = false;
  context.subscriptions.push(
    host.onPush((type, payload) => {
      if (type === 'chat/status') {
        const s = payload as ChatStatus;
        if (!ready && s.model && !s.notice) {
          ready = true;
          void vscode.commands.executeCommand('setContext', 'patchpilot.walkthrough.modelReady', true);
        }
      } else if (type === 'chat/entry' && !ran) {
        const { entry } = payload as ToWebview['chat/entry'];
        if (entry.kind === 'event' && entry.event.type === 'run/started') {
          ran = true;
          void vscode.commands.executeCommand('setContext', 'patchpilot.walkthrough.ranGoal', true);
        }
      }
    }),
  );
}
