// A new user's own JavaScript project with "test": "node --test" and no PatchPilot settings, in a
// real VS Code: the chat offers the project's test command ("Use npm test"), the click asks where to
// keep it; "This Workspace" writes the workspace setting (said so in the question), and a run whose edit breaks a test that passed before the run refuses the
// model's first finish (a notice says so) and ends "finished · tests failed", not a green "finished". Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';
import type { Page } from 'playwright-core';

// add() works before the run (the baseline passes); the model's edit breaks it: a failure the run introduced.
const WORKING = 'exports.add = (a, b) => a + b;\n';
const TEST =
  "const { test } = require('node:test');\nconst assert = require('node:assert/strict');\nconst { add } = require('./add');\ntest('adds', () => assert.equal(add(2, 2), 4));\n";
const BREAKS = '--- a/add.js\n+++ b/add.js\n@@ -1 +1 @@\n-exports.add = (a, b) => a + b;\n+exports.add = (a, b) => a + b + 1;\n';

const OFFER_TOAST = "PatchPilot found this project's tests";

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
};

const scripted = useScriptedModel(
  [
    { reply: { text: 'Changing add.', toolCalls: [{ name: 'propose_patch', arguments: { patch: BREAKS } }] } },
    { reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'Changed add.' } }] }, expect: { lastMessageContains: 'tests FAILED' } },
    // The first finish over failing tests is refused: the model is told and finishes again.
    {
      reply: { toolCalls: [{ name: 'finish', arguments: { summary: 'Changed add; the tests still fail.' } }] },
      expect: { lastMessageContains: 'so the run was not ended' },
    },
  ],
  settings,
);

e2eTest(
  'detected tests: "Use npm test" in the chat configures them; a run whose last tests failed does not end green',
  async (vs) => {
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    const use = getByRoleIn(chat, 'button', /^Use npm test/);
    await use.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('chat-detected-tests-offer');
    // With the chat on screen the banner is the one offer: no notification says it a second time.
    await vs.page.waitForTimeout(4_000); // past the offer's wait for the chat (offerDetectedTests.ts), when a toast would come
    assert.equal(await vs.page.locator('.notifications-toasts .notification-toast', { hasText: OFFER_TOAST }).count(), 0, 'the offer was shown twice');
    await use.click();
    await pickPlace(vs.page, 'This Workspace', /writes .*\.vscode\/settings\.json.*A file in your repository/);
    await vs.screenshot('chat-detected-tests-where-light');
    await vs.page.keyboard.press('Enter');
    const deadline = Date.now() + E2E_TIMEOUT;
    while (!/"patchpilot\.tests\.commands":\s*\[\s*"npm test"\s*\]/.test(safeRead(vs, '.vscode/settings.json'))) {
      if (Date.now() > deadline) assert.fail(`the workspace setting was not written: ${safeRead(vs, '.vscode/settings.json')}`);
      await vs.page.waitForTimeout(200); // polling the disk
    }
    await use.waitFor({ state: 'detached', timeout: E2E_TIMEOUT });

    await sendInChat(vs, 'Fix add');
    await chat
      .getByText('The model called finish while tests its edits broke still fail; it was told which and asked to try again.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat
      .getByText('finished · tests failed')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('chat-detected-tests-failed-end');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'add.js': WORKING, 'add.test.js': TEST, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) }, settings },
);

/** Waits for the "where to keep it" question, moves to the row labelled `label` and checks its plain-words detail (Enter is the caller's). */
async function pickPlace(page: Page, label: string, detail: RegExp): Promise<void> {
  await page
    .locator('.quick-input-widget .quick-input-title', { hasText: /Where should PatchPilot keep "npm test"/ })
    .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await row.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
  assert.match((await row.textContent()) ?? '', detail);
  const box = page.locator('.quick-input-widget input.input');
  await box.fill(label);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: label }).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
}

e2eTest(
  'detected tests: with the chat closed the offer is a notification, and the chat shows the same offer when opened',
  async (vs) => {
    const toast = await vs.waitForNotification(OFFER_TOAST);
    await vs.screenshot('chat-detected-tests-notification');
    assert.equal(await toast.getByRole('button', { name: /^Use npm test/ }).count(), 1);
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    await getByRoleIn(chat, 'button', /^Use npm test/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
  },
  { files: { 'add.js': WORKING, 'add.test.js': TEST, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) }, settings },
);

e2eTest(
  'detected tests: "This Window Only" writes no file, and Run Tests runs npm test in this window',
  async (vs) => {
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    const use = getByRoleIn(chat, 'button', /^Use npm test/);
    await use.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await use.click();
    await pickPlace(vs.page, 'This Window Only', /writes nothing/);
    await vs.screenshot('chat-detected-tests-where-dark');
    await vs.page.keyboard.press('Enter');
    await use.waitFor({ state: 'detached', timeout: E2E_TIMEOUT });
    await vs.runCommand('PatchPilot: Run Tests');
    await vs.page.locator('#workbench\\.parts\\.statusbar', { hasText: 'PatchPilot: tests passed' }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(safeRead(vs, '.vscode/settings.json'), '', 'a window-only choice writes no settings file');
    await vs.screenshot('chat-detected-tests-window-only-dark');
  },
  {
    files: { 'add.js': WORKING, 'add.test.js': TEST, 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2) },
    settings: { 'workbench.colorTheme': 'Default Dark Modern' },
  },
);

function safeRead(vs: { readFile(rel: string): string }, rel: string): string {
  try {
    return vs.readFile(rel);
  } catch {
    return '';
  }
}
