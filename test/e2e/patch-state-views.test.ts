// A patch's state is one thing in every view (code-server + Chromium, 1280x720): with the history
// panel open on the run, Undo Patch in the chat shows there as undone without a reload; Apply Again
// in the history brings the chat's card back to "applied again by you" with its Undo Patch, the chat
// says "You applied the patch … again" as it says each undo, and the history says so too; after a reload the chat's card still says what the history recorded last, and offers the history's Revert (Revert Patch) where Undo Patch no longer reaches. Screenshots in the light and the dark theme. Skipped with the reason when
// code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { GREETING_AFTER, GREETING_BEFORE, fixTheGreeting, useGreetingFix, waitForGreeting, openGreetingRunInHistory } from './support/greetingFix';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';
import type { Page } from 'playwright-core';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
  'workbench.colorTheme': 'Default Light Modern',
};

const scripted = useGreetingFix(settings);

const UNDONE_LINE = 'You undid the patch to greet.js; the model hears of it with your next message.';
const REAPPLIED_LINE = 'You applied the patch to greet.js again; the model hears of it with your next message.';

const historyTab = (page: Page) => page.getByRole('tab', { name: /^PatchPilot History/ }).first();

e2eTest(
  'patch state in every view: Undo Patch in the chat shows in the open history; Apply Again in the history shows in the chat',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 720 });
    const chat = await fixTheGreeting(vs);
    await waitForGreeting(vs, GREETING_AFTER);

    // The history open on the run, beside the chat.
    const { detail } = await openGreetingRunInHistory(vs);

    // Undo in the chat: the history (not reloaded, not clicked) says so.
    await getByRoleIn(chat, 'button', 'Undo Patch to greet.js').click();
    await waitForGreeting(vs, GREETING_BEFORE);
    await detail.getByText(/1 of 1 hunks applied, then undone by you/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat
      .getByText(/undone by you/)
      .first()
      .waitFor({ state: 'visible' });
    await vs.screenshot('patch-state-undone-light');

    // Apply Again in the history: the chat's card says so and offers Undo Patch again.
    await detail.getByRole('button', { name: 'Apply again: patch to greet.js' }).click();
    await waitForGreeting(vs, GREETING_AFTER);
    await chat.getByText('Written to greet.js: the hunk (applied again by you)').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await getByRoleIn(chat, 'button', 'Undo Patch to greet.js').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await detail.getByText(/1 of 1 hunks applied, later applied again by you/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // Said in the chat as the undo is: the user's own actions read in order.
    await chat.getByText(REAPPLIED_LINE).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.page
      .locator('#workbench\\.parts\\.statusbar', { hasText: 'Patch to greet.js: applied again by you' })
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // The write opened its diff over the history: bring the history back to see both views.
    await historyTab(vs.page).click();
    await vs.screenshot('patch-state-applied-again-light');

    // And once more from the chat, in the dark theme: the history follows again.
    // The palette needs the editor area's focus, which the history's webview would keep: the diff's tab first.
    await vs.page
      .getByRole('tab', { name: /^greet\.js \(applied by PatchPilot\)/ })
      .last()
      .click();
    await vs.runCommand('Preferences: Toggle between Light/Dark Themes');
    await getByRoleIn(chat, 'button', 'Undo Patch to greet.js').click();
    await waitForGreeting(vs, GREETING_BEFORE);
    await detail.getByText(/1 of 1 hunks applied, then undone by you/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // Undo, Apply Again, Undo: the chat reads all three, in that order.
    await chat.getByText(UNDONE_LINE).nth(1).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    const lines = await chat.getByText(/^You (undid the patch to greet\.js|applied the patch to greet\.js again)/).allTextContents();
    assert.deepEqual(lines, [UNDONE_LINE, REAPPLIED_LINE, UNDONE_LINE]);
    await historyTab(vs.page).click();
    await vs.screenshot('patch-state-undone-again-dark');

    // Apply Again in the history, then a reload: the chat's saved lines end with the chat's Undo, yet
    // its card says what the history recorded last (the window's store is seeded from the history).
    await detail.getByRole('button', { name: 'Apply again: patch to greet.js' }).click();
    await waitForGreeting(vs, GREETING_AFTER);
    await chat.getByText('Written to greet.js: the hunk (applied again by you)').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.reload();
    await vs.openViewContainer('PatchPilot');
    const reloaded = await vs.webviewFrame('PatchPilot');
    await reloaded.getByText('Written to greet.js: the hunk (applied again by you)').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // Written before the reload: this window cannot undo it, so no Undo Patch; the card offers the history's Revert instead, saying what it does.
    assert.equal(await getByRoleIn(reloaded, 'button', 'Undo Patch to greet.js').count(), 0);
    const revert = getByRoleIn(reloaded, 'button', 'Revert Patch to greet.js');
    await revert.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await reloaded
      .getByText(/Revert Patch applies the recorded patch in reverse, as the history panel's Revert does; if the files changed since, it refuses and says why/)
      .waitFor({ state: 'visible' });
    await vs.screenshot('patch-state-after-reload-dark');
    await revert.click();
    await waitForGreeting(vs, GREETING_BEFORE);
    await reloaded
      .getByText(/^Written to greet\.js: the hunk \(undone by you/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await getByRoleIn(reloaded, 'button', 'Revert Patch to greet.js').count(), 0, 'a reverted patch offers no Revert');
    await vs.screenshot('patch-state-reverted-after-reload-dark');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': GREETING_BEFORE }, settings },
);
