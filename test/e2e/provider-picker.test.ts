// Setting up a model without settings.json, in a real VS Code: a fresh window shows "Choose
// Provider" in the chat; "PatchPilot: Select Model" from the palette walks provider (Ollama, pointed
// at the scripted model server), endpoint, model (the server's own list) and fast model; then a
// goal typed in the chat runs on that model. Skipped with the reason when code-server is missing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { after, before } from 'node:test';
import { ScriptedModelServer } from '../support/scriptedModel';
import { sendInChat } from './support/chat';
import { beforeRetry, e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

// No endpoint, model or provider in the settings: the flow writes them.
const settings: Record<string, unknown> = { 'patchpilot.approval.mode': 'ask' };
let server: ScriptedModelServer | undefined;
const scripted = {
  get server() {
    return server!;
  },
};
before(async () => {
  server = await ScriptedModelServer.start([{ reply: { text: 'Hello from the model you picked.' } }]);
});
after(async () => {
  await server?.close();
});
beforeRetry(() => server?.reset());

/** Waits for the quick input step whose title matches, then types `value` (replacing what is there) and presses Enter. */
async function answer(page: Page, title: RegExp, value?: string, pickRow?: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
  const box = page.locator('.quick-input-widget input.input');
  if (value !== undefined) await box.fill(value);
  if (pickRow) await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: pickRow }).first().waitFor({ state: 'visible' });
  await box.press('Enter');
}

e2eTest(
  'provider picker: Select Model sets up Ollama at a given URL with the listed model, and a goal runs on it',
  async (vs) => {
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    // The no-model state offers the setup flow (the header has it too).
    await chat
      .getByText(/No model endpoint/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await getByRoleIn(chat, 'button', 'Choose Provider').first().waitFor({ state: 'visible' });

    await vs.runCommand('PatchPilot: Select Model');
    await answer(vs.page, /\(1\/4\): provider/, 'Ollama', 'Ollama');
    await vs.screenshot('provider-picker-endpoint');
    await answer(vs.page, /\(2\/4\): Ollama endpoint/, scripted.server.baseUrl);
    // No key step: Ollama runs on this machine. The model list is the server's own.
    await answer(vs.page, /\(4\/4\): model/, 'scripted-model', 'scripted-model');
    await answer(vs.page, /fast model/, undefined, 'Same as the model');
    await vs.waitForNotification(/PatchPilot: Ollama, model scripted-model/);

    const user = JSON.parse(readFileSync(path.join(vs.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(user['patchpilot.llm.provider'], 'ollama');
    assert.equal(user['patchpilot.llm.baseUrl'], scripted.server.baseUrl);
    assert.equal(user['patchpilot.llm.model'], 'scripted-model');
    assert.equal(user['patchpilot.llm.fastModel'], undefined, 'the fast model is the same model: nothing written');

    await sendInChat(vs, 'Say hello');
    await chat
      .getByText('Hello from the model you picked.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('provider-picker-done');
    const sent = scripted.server.chatRequests.at(-1)!;
    assert.equal((sent.body as { model?: string }).model, 'scripted-model');
    assert.equal(sent.headers.authorization ?? '', '', 'no key goes to a local server');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { settings },
);
