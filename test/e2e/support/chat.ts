// The chat as a person uses it: open the PatchPilot view, type into "Message PatchPilot", press
// "Send". Returns the chat's frame for what the test looks for next.
import { after, before } from 'node:test';
import type { Frame } from 'playwright-core';
import { ScriptedModelServer, type ScriptedTurn } from '../../support/scriptedModel';
import { beforeRetry, type VsCodeSession } from './session';
import { getByRoleIn } from './workbench';

export async function sendInChat(vs: VsCodeSession, message: string): Promise<Frame> {
  await vs.openViewContainer('PatchPilot');
  const chat = await vs.webviewFrame('PatchPilot');
  await getByRoleIn(chat, 'textbox', 'Message PatchPilot').fill(message);
  await getByRoleIn(chat, 'button', 'Send').click();
  return chat;
}

/**
 * The scripted model for one e2e file: started before its tests (its URL goes into `settings`, the
 * user settings e2eTest gives code-server, which must exist when the test is declared) and closed after.
 */
export function useScriptedModel(turns: ScriptedTurn[], settings: Record<string, unknown>): { readonly server: ScriptedModelServer } {
  let server: ScriptedModelServer | undefined;
  before(async () => {
    server = await ScriptedModelServer.start(turns);
    settings['patchpilot.llm.baseUrl'] = server.baseUrl;
  });
  after(async () => {
    await server?.close();
  });
  beforeRetry(() => server?.reset());
  return {
    get server() {
      if (!server) throw new Error('the scripted model starts in before()');
      return server;
    },
  };
}
