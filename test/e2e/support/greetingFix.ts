// The opening several chat tests share: greet.js says "helo", the scripted model proposes the
// one-line fix (propose_patch) and then says the greeting is fixed. The tests differ in what they do
// with the written patch (undo, restore, reopen, the history), so only the scenario lives here.
import assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import type { ScriptedTurn } from '../../support/scriptedModel';
import { sendInChat, useScriptedModel } from './chat';
import type { VsCodeSession } from './session';
import { editorWebviewFrame } from './editorWebview';
import { E2E_TIMEOUT, getByRoleIn } from './workbench';

export const GREETING_BEFORE = "module.exports = () => 'helo, world';\n";
export const GREETING_AFTER = "module.exports = () => 'hello, world';\n";
export const GREETING_PATCH = ['--- a/greet.js', '+++ b/greet.js', '@@ -1 +1 @@', `-${GREETING_BEFORE.trimEnd()}`, `+${GREETING_AFTER.trimEnd()}`, ''].join(
  '\n',
);
export const GREETING_GOAL = 'Fix the typo in the greeting';
/** The model's closing reply once the patch is written. */
export const GREETING_FIXED = 'Fixed the greeting in greet.js.';
/** The chat's line for the written hunk once a restore took it back. */
export const GREETING_TAKEN_BACK = 'Written to greet.js: the hunk (taken back by a restore to an earlier step)';

/** The scripted model of the scenario for one e2e file: the patch, the closing reply, then `later` (a reply to an undo...). */
export function useGreetingFix(settings: Record<string, unknown>, later: ScriptedTurn[] = []): ReturnType<typeof useScriptedModel> {
  return useScriptedModel(
    [
      { reply: { text: 'The greeting has a typo; fixing it.', toolCalls: [{ name: 'propose_patch', arguments: { patch: GREETING_PATCH } }] } },
      { reply: { text: GREETING_FIXED } },
      ...later,
    ],
    settings,
  );
}

/** Sends the goal in the chat and waits for the closing reply (in auto-edit mode nothing asks on the way). Returns the chat's frame. */
export async function fixTheGreeting(vs: VsCodeSession): Promise<Frame> {
  const chat = await sendInChat(vs, GREETING_GOAL);
  await chat
    .getByText(GREETING_FIXED)
    .first()
    .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
  return chat;
}

/** Polls greet.js on disk until it holds `text`: a write, an undo or a restore lands a moment after the view shows it. */
export async function waitForGreeting(vs: Pick<VsCodeSession, 'readFile' | 'page'>, text: string): Promise<void> {
  const deadline = Date.now() + E2E_TIMEOUT * 2;
  while (vs.readFile('greet.js') !== text) {
    if (Date.now() > deadline) assert.equal(vs.readFile('greet.js'), text);
    await vs.page.waitForTimeout(200); // polling the disk
  }
}

/** Opens the history on the greeting's run and waits for its patch, applied: the panel and the run's details. */
export async function openGreetingRunInHistory(vs: Pick<VsCodeSession, 'runCommand' | 'page'>): Promise<{ panel: Frame; detail: Locator }> {
  await vs.runCommand('PatchPilot: Show History');
  const panel = await editorWebviewFrame(vs.page, 'PatchPilot History');
  await getByRoleIn(panel, 'listbox', 'Runs')
    .getByRole('option', { name: new RegExp(`^${GREETING_GOAL}`) })
    .click();
  const detail = panel.getByRole('region', { name: 'Run details' });
  await detail.getByText(/^1 of 1 hunks applied$/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
  return { panel, detail };
}

/** Restore to Here on the goal's message in the chat, through its preview: greet.js is back to "helo" and the chat says the hunk was taken back. */
export async function restoreBeforeTheGreetingFix(vs: Pick<VsCodeSession, 'readFile' | 'page'>, chat: Frame): Promise<void> {
  await chat.getByRole('button', { name: 'Restore to Here, before this message', exact: true }).click();
  const preview = chat.getByRole('group', { name: 'Preview: Restore to Here, before this message' });
  await preview.getByRole('button', { name: 'Restore 1 file', exact: true }).click();
  await waitForGreeting(vs, GREETING_BEFORE);
  await chat.getByText(GREETING_TAKEN_BACK).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
}
