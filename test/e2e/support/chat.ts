// The chat as a person uses it: open the PatchPilot view, type into "Message PatchPilot", press
// "Send". Returns the chat's frame for what the test looks for next.
import type { Frame } from 'playwright-core';
import type { VsCodeSession } from './session';
import { getByRoleIn } from './workbench';

export async function sendInChat(vs: VsCodeSession, message: string): Promise<Frame> {
  await vs.openViewContainer('PatchPilot');
  const chat = await vs.webviewFrame('PatchPilot');
  await getByRoleIn(chat, 'textbox', 'Message PatchPilot').fill(message);
  await getByRoleIn(chat, 'button', 'Send').click();
  return chat;
}
