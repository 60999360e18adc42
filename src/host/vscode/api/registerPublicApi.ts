import type * as vscode from 'vscode';
import type { ChatController } from '../chat/controller/chatController';
import type { ChatEntry } from '../../../protocol/chat';
import { PATCHPILOT_API_VERSION, type PatchPilotPublicApi } from '../../../protocol/patchPilotApi';
import { ApiEvents } from './apiEventsLogic';

/** The public API: its events come from the agent events the host pushes to the chat (apiEventsLogic.ts). */
export function registerPublicApi(context: vscode.ExtensionContext, host: ChatController): PatchPilotPublicApi {
  const events = new ApiEvents();
  context.subscriptions.push(
    events,
    host.onPush((type, payload) => {
      if (type !== 'chat/entry') return;
      const entry = (payload as { entry: ChatEntry }).entry;
      if (entry.kind === 'event') events.take(entry.event);
    }),
  );
  return { version: PATCHPILOT_API_VERSION, events: events.events };
}
