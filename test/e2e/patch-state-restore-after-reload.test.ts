// A restore done after a window reload, in every view (code-server + Chromium, the packaged VSIX):
// a run writes a patch; after "Reload Window" the window knows the patch only from the history. With
// the history open on the run, "Restore to Here" in the chat takes it back, and the chat's card and
// the history's patch both say "taken back by a restore" without another reload (the window's patch
// states read the restore from the history, where it is recorded before the chat shows it).
// Screenshot of both. Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import {
  GREETING_AFTER,
  GREETING_BEFORE,
  GREETING_FIXED,
  fixTheGreeting,
  useGreetingFix,
  waitForGreeting,
  openGreetingRunInHistory,
  restoreBeforeTheGreetingFix,
} from './support/greetingFix';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';
import type { Frame, Locator } from 'playwright-core';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
  'workbench.colorTheme': 'Default Dark Modern',
};

const scripted = useGreetingFix(settings);

const byRole = (where: Frame | Locator, role: 'button' | 'textbox', name: string) => where.getByRole(role, { name, exact: true });

e2eTest(
  'a restore after a window reload takes the patch back in the chat and the open history alike, without another reload',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 757 });
    const first = await fixTheGreeting(vs);
    await waitForGreeting(vs, GREETING_AFTER);
    await first.getByRole('button', { name: 'Stop', disabled: true }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    await vs.reload();
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    await chat.getByText(GREETING_FIXED).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    const { detail } = await openGreetingRunInHistory(vs);
    await byRole(detail, 'button', 'Revert patch to greet.js').waitFor({ state: 'visible' });

    // Restore to Here in the reloaded chat: the patch (known only from the history) is taken back in both views.
    await restoreBeforeTheGreetingFix(vs, chat);
    await detail.getByText(/^1 of 1 hunks applied, then taken back by a restore to an earlier step at /).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await byRole(detail, 'button', 'Revert patch to greet.js').count(), 0, 'no Revert of a patch the files no longer have');
    await byRole(detail, 'button', 'Apply again: patch to greet.js').waitFor({ state: 'visible' });
    await vs.screenshot('patch-state-restored-after-reload-dark');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': GREETING_BEFORE }, settings },
);
