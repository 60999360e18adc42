// A restore's effect on a patch in every view, then in a reopened conversation (code-server +
// Chromium, the packaged VSIX, a 1280x757 window, dark theme): a run writes a patch and its tests
// pass; with the history open on the run, "Restore to Here" in the chat takes the patch back. The
// chat's card and the history's patch both say "taken back by a restore" without a reload, and the
// history no longer offers Revert (the files do not have the patch). After New Chat, the reopened
// conversation shows the tool row, the card in that state and the test result, with the message box
// and Send in view. Screenshots of both. Skipped with the reason when code-server is not installed
// and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import {
  GREETING_AFTER,
  GREETING_BEFORE,
  GREETING_GOAL,
  fixTheGreeting,
  useGreetingFix,
  waitForGreeting,
  openGreetingRunInHistory,
  restoreBeforeTheGreetingFix,
  GREETING_TAKEN_BACK,
} from './support/greetingFix';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';
import type { Frame, Locator, Page } from 'playwright-core';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
  'patchpilot.tests.commands': ['node check.js'],
  'workbench.colorTheme': 'Default Dark Modern',
};

const scripted = useGreetingFix(settings);

const byRole = (where: Frame | Locator, role: 'button' | 'textbox', name: string) => where.getByRole(role, { name, exact: true });

/** Wholly inside the window (boundingBox is in the page's coordinates, the webview's frame included). */
async function inView(page: Page, target: Locator, what: string): Promise<void> {
  const box = await target.boundingBox();
  const height = page.viewportSize()?.height ?? 0;
  assert.ok(box && box.y >= 0 && box.y + box.height <= height, `${what} is in view (${JSON.stringify(box)}, window ${height} px tall)`);
}

e2eTest(
  'a restore takes a patch back in the chat and the open history alike; the reopened conversation shows it so',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 757 });
    const chat = await fixTheGreeting(vs);
    await chat
      .getByText(/^Tests passed/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await waitForGreeting(vs, GREETING_AFTER);

    const { detail } = await openGreetingRunInHistory(vs);
    await byRole(detail, 'button', 'Revert patch to greet.js').waitFor({ state: 'visible' });

    // Restore to Here in the chat: the patch is taken back, said in both views without a reload.
    await restoreBeforeTheGreetingFix(vs, chat);
    await chat.getByText('greet.js:1-1 · written, then taken back by the restore').first().waitFor({ state: 'visible' });
    await detail.getByText(/^1 of 1 hunks applied, then taken back by a restore to an earlier step at /).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await byRole(detail, 'button', 'Revert patch to greet.js').count(), 0, 'no Revert of a patch the files no longer have');
    await byRole(detail, 'button', 'Apply again: patch to greet.js').waitFor({ state: 'visible' });
    await vs.screenshot('patch-state-restored-away-dark');

    // Reopened after New Chat: every step, the card as it stands now, the message box and Send in view.
    await vs.page
      .getByRole('button', { name: /^New Chat/ })
      .first()
      .click();
    await getByRoleIn(chat, 'button', `Continue: ${GREETING_GOAL}`).click();
    await chat
      .getByText(/^Reopened as it was shown/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByText('propose_patch').first().waitFor({ state: 'visible' });
    await chat.getByText(GREETING_TAKEN_BACK).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat
      .getByText(/^Tests passed/)
      .first()
      .waitFor({ state: 'visible' });
    await inView(vs.page, byRole(chat, 'textbox', 'Message PatchPilot'), 'the message box');
    await inView(vs.page, byRole(chat, 'button', 'Send'), 'Send');
    await vs.screenshot('chat-reopened-restored-away-757-dark');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': GREETING_BEFORE, 'check.js': 'process.exit(0);\n' }, settings },
);
