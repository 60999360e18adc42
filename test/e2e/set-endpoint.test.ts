// Pointing PatchPilot at an endpoint without settings.json, in a real VS Code. The user settings
// name a model and an endpoint that refuses connections: a goal fails, and the failed run offers
// "Open Settings", which opens the Settings UI. "PatchPilot: Set Endpoint" from the palette takes
// the scripted model server's base URL in its input box, and the next goal reaches that server.
// Then the chat's own "Choose Provider" control (not the palette) walks the provider picker to the
// same server as Ollama, and a goal runs on the model it lists. Skipped when code-server is missing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { after, before } from 'node:test';
import { ScriptedModelServer } from '../support/scriptedModel';
import { sendInChat } from './support/chat';
import { beforeRetry, e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

/** A loopback port nothing listens on: connecting to it is refused at once. */
async function refusedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const settings: Record<string, unknown> = { 'patchpilot.approval.mode': 'ask', 'patchpilot.llm.model': 'scripted-model' };
let server: ScriptedModelServer | undefined;
before(async () => {
  settings['patchpilot.llm.baseUrl'] = `http://127.0.0.1:${await refusedPort()}/v1`;
  server = await ScriptedModelServer.start([{ reply: { text: 'Reached through Set Endpoint.' } }, { reply: { text: 'Reached through Choose Provider.' } }]);
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
  'a refused endpoint offers Open Settings; Set Endpoint from the palette and Choose Provider from the chat each point a goal at the server',
  async (vs) => {
    const userSettings = () => JSON.parse(readFileSync(path.join(vs.server.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;

    // 1. Refused connection: the failed run offers Open Settings (its name starts with its verb), which opens the Settings UI.
    const chat = await sendInChat(vs, 'Say hello');
    const openSettings = getByRoleIn(chat, 'button', /^Open Settings/).last();
    await openSettings.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await getByRoleIn(chat, 'button', /^Retry/)
      .last()
      .waitFor({ state: 'visible' });
    await vs.screenshot('set-endpoint-refused');
    await openSettings.click();
    const settingsEditor = vs.page.locator('.settings-editor');
    await settingsEditor.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // Filtered to PatchPilot's own settings (the list is virtual: its first rows are what is drawn).
    await settingsEditor.locator('.settings-count-widget', { hasText: /Settings? Found/ }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await settingsEditor
      .locator('.setting-item', { hasText: /Patchpilot.*Approval/ })
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.screenshot('set-endpoint-settings-ui');

    // 2. PatchPilot: Set Endpoint, the server's base URL typed into the input box.
    await vs.runCommand('PatchPilot: Set Endpoint');
    await answer(vs.page, /PatchPilot: Set Endpoint/, scripted().baseUrl);
    await vs.waitForNotification(/PatchPilot: the endpoint is http:\/\/127\.0\.0\.1/);
    assert.equal(userSettings()['patchpilot.llm.baseUrl'], scripted().baseUrl);
    await sendInChat(vs, 'Say hello again');
    await chat
      .getByText('Reached through Set Endpoint.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(scripted().chatRequests.length, 1, 'the server saw the goal');
    assert.equal((scripted().chatRequests[0]!.body as { model?: string }).model, 'scripted-model');

    // 2b. Select Model now starts at that endpoint: its models, the provider list one choice away.
    await vs.runCommand('PatchPilot: Select Model');
    await vs.page
      .locator('.quick-input-widget .quick-input-title', { hasText: `Select Model at ${scripted().baseUrl}` })
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.page.locator('.quick-input-list .monaco-list-row', { hasText: 'Change provider' }).first().waitFor({ state: 'visible' });
    // The asking was said in the picker (busy) before its list came: no notification of it stays behind the list.
    assert.equal(
      await vs.page.locator('.notification-toast', { hasText: 'for its models' }).count(),
      0,
      'no "asking for its models" notification behind the picker',
    );
    await vs.screenshot('select-model-at-endpoint');
    await answer(vs.page, /Select Model at/, 'scripted-model', 'scripted-model');
    await vs.waitForNotification(/PatchPilot: model scripted-model at http:\/\/127\.0\.0\.1/);
    assert.equal(userSettings()['patchpilot.llm.model'], 'scripted-model');

    // 3. The chat's Choose Provider control opens the provider list at once.
    await getByRoleIn(chat, 'button', 'Choose Provider').first().click();
    await answer(vs.page, /\(1\/4\): provider/, 'Ollama', 'Ollama');
    await answer(vs.page, /\(2\/4\): Ollama endpoint/, scripted().baseUrl);
    await answer(vs.page, /\(4\/4\): model/, 'scripted-model', 'scripted-model');
    await answer(vs.page, /fast model/, undefined, 'Same as the model');
    await vs.waitForNotification(/PatchPilot: Ollama, model scripted-model/);
    assert.equal(userSettings()['patchpilot.llm.provider'], 'ollama');
    await sendInChat(vs, 'And once more');
    await chat
      .getByText('Reached through Choose Provider.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(scripted().chatRequests.length, 2);
    assert.deepEqual(scripted().mismatches, []);
  },
  { settings },
);

function scripted(): ScriptedModelServer {
  if (!server) throw new Error('the scripted model starts in before()');
  return server;
}
