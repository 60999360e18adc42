// A newcomer's first setup, in a real VS Code at 1280x720 from the packaged VSIX in a fresh profile:
// "PatchPilot: Set Endpoint" with no model yet says the next step and offers "Select Model" on its
// notification; a goal sent anyway is refused with a banner whose first button is "Select Model"
// (the endpoint's models, not the provider list again), and the project's tests offer stays beside
// it, whole (its last button in view). That button lists the endpoint's models, and after picking one
// the goal runs. Screenshots in light and dark. Skipped when code-server is missing.
import assert from 'node:assert/strict';
import type { Frame, Locator, Page } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest, type VsCodeSession } from './support/session';
import { E2E_TIMEOUT, focusWorkbench, getByRoleIn } from './support/workbench';

const settings: Record<string, unknown> = { 'workbench.colorTheme': 'Default Dark Modern' };
const scripted = useScriptedModel([{ reply: { text: 'Hello from the endpoint you chose.' } }], settings);
const files = {
  'package.json': JSON.stringify({ name: 'sample', version: '1.0.0', scripts: { test: 'node --test' } }, null, 2) + '\n',
  'src/sum.js': 'module.exports = (a, b) => a - b;\n',
};

/** Whether `target` lies wholly inside the visible part of `box` (a scroll box cuts what overflows it). */
async function wholeIn(target: Locator, box: Locator): Promise<boolean> {
  const [t, b] = [await target.boundingBox(), await box.boundingBox()];
  return !!t && !!b && t.height > 0 && t.y >= b.y - 1 && t.y + t.height <= b.y + b.height + 1;
}

async function pickQuick(page: Page, title: RegExp, row: string): Promise<void> {
  await page.locator('.quick-input-widget .quick-input-title', { hasText: title }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
  await page.locator('.quick-input-list .monaco-list-row', { hasText: row }).first().click();
}

/** As a person switches themes: the color theme picker (Ctrl+K Ctrl+T), the theme's row. Returns the chat's frame in it. */
async function setTheme(vs: VsCodeSession, name: string, bodyClass: string): Promise<Frame> {
  const box = vs.page.locator('.quick-input-widget input.input');
  // On a loaded machine the chord can be lost: press it again until the picker stays (as chat-themes does).
  for (let attempt = 1; ; attempt++) {
    await focusWorkbench(vs.page);
    await vs.page.keyboard.press('Control+K');
    await vs.page.keyboard.press('Control+T');
    if (
      await box.waitFor({ state: 'visible', timeout: 10_000 }).then(
        () => true,
        () => false,
      )
    )
      break;
    if (attempt === 5) assert.fail('the color theme picker did not open');
  }
  await box.fill(name);
  await vs.page
    .locator('.quick-input-list .monaco-list-row', { hasText: new RegExp(`^${name}`) })
    .first()
    .click();
  const chat = await vs.webviewFrame('PatchPilot');
  await chat.locator(`body.${bodyClass}`).waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
  return chat;
}

e2eTest(
  'first setup: Set Endpoint offers Select Model, a goal sent without a model gets Select Model first, the tests offer stays whole, then the goal runs',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 720 });
    await vs.runCommand('PatchPilot: Set Endpoint');
    await vs.page.locator('.quick-input-widget .quick-input-title', { hasText: /PatchPilot: Set Endpoint/ }).waitFor({ state: 'visible' });
    await vs.page.locator('.quick-input-widget input.input').fill(scripted.server.baseUrl);
    await vs.page.locator('.quick-input-widget input.input').press('Enter');
    const toast = await vs.waitForNotification(/the endpoint is http:\/\/127\.0\.0\.1:\d+\/v1\. Now choose one of its models\./);
    await toast.getByRole('button', { name: 'Select Model' }).waitFor({ state: 'visible' });

    // A goal anyway: refused, put back in the box, and the banner's first (primary) button is the next step.
    const chat = await sendInChat(vs, 'Say hello');
    const banners = chat.locator('.pp-banner-slot');
    await banners.getByText(/^No model: /).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    const first = banners.locator('.pp-banner').first().getByRole('button').first();
    assert.equal(await first.textContent(), 'Select Model');
    assert.match((await first.getAttribute('class')) ?? '', /pp-button-primary/);
    // The box is emptied on Send and the refused goal put back: wait for it to come back (the banner may predate the refusal).
    await chat.waitForFunction(() => document.querySelector('textarea')?.value === 'Say hello', undefined, { timeout: E2E_TIMEOUT });
    // The tests offer is still there after the refusal, and its last button is not cut off.
    const never = getByRoleIn(chat, 'button', 'Never for This Workspace');
    await never.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.ok(await wholeIn(never, banners), 'the tests offer is cut off by the banner box at 1280x720');
    await vs.screenshot('first-endpoint-no-model-dark');
    const light = await setTheme(vs, 'Light Modern', 'vscode-light');
    assert.ok(await wholeIn(getByRoleIn(light, 'button', 'Never for This Workspace'), light.locator('.pp-banner-slot')));
    await vs.screenshot('first-endpoint-no-model-light');

    // Select Model lists the endpoint's models; picking one lets the same goal run.
    await light.locator('.pp-banner').first().getByRole('button', { name: 'Select Model' }).click();
    await pickQuick(vs.page, /PatchPilot: Select Model at http:\/\/127\.0\.0\.1/, 'scripted-model');
    await vs.waitForNotification(/PatchPilot: model scripted-model at /);
    await light.getByText('Model: scripted-model').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await getByRoleIn(light, 'button', 'Send').click();
    await light
      .getByText('Hello from the endpoint you chose.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('first-endpoint-ran-light');
  },
  { settings, files },
);
