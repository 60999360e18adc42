// Apply Again's review is the recorded patch's review (code-server + Chromium, 1280x720): a run writes
// hunks 1 and 3 of a three-hunk patch (hunk 2 rejected), the user undoes it, then applies it again from
// the history with PatchPilot asking first. The review shows the two written hunks numbered afresh
// (1/2, 2/2); accepting the review's first is hunk 1 of the recorded patch in the history and in the
// chat's card before anything is written, and rejecting the review's second is the recorded hunk 3
// (not the recorded hunk 2). On disk exactly hunk 1. Screenshots in the light theme. Skipped with
// the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { editorWebviewFrame } from './support/editorWebview';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';
import type { Page } from 'playwright-core';

const gap = (n: number) => Array.from({ length: 8 }, (_, i) => `// gap ${n}.${i + 1}`);
const BEFORE = ['const a = 1', ...gap(1), 'const b = 2', ...gap(2), 'const c = 3', 'module.exports = { a, b, c };', ''].join('\n');
const PATCH = [
  '--- a/consts.js',
  '+++ b/consts.js',
  '@@ -1,2 +1,2 @@',
  '-const a = 1',
  '+const a = 1;',
  ' // gap 1.1',
  '@@ -9,3 +9,3 @@',
  ' // gap 1.8',
  '-const b = 2',
  '+const b = 2;',
  ' // gap 2.1',
  '@@ -17,3 +17,3 @@',
  ' // gap 2.8',
  '-const c = 3',
  '+const c = 3;',
  ' module.exports = { a, b, c };',
  '',
].join('\n');
const RUN_WROTE = BEFORE.replace('const a = 1\n', 'const a = 1;\n').replace('const c = 3\n', 'const c = 3;\n');
const AGAIN_WROTE = BEFORE.replace('const a = 1\n', 'const a = 1;\n');
const GOAL = 'Add the missing semicolons';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
  'diffEditor.codeLens': true,
  'workbench.colorTheme': 'Default Light Modern',
};

const scripted = useScriptedModel(
  [
    { reply: { text: 'Semicolons for a, b and c.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Added the semicolons you kept.' } },
  ],
  settings,
);

async function waitForDisk(vs: { readFile(p: string): string; page: Page }, text: string, what: string): Promise<void> {
  const deadline = Date.now() + E2E_TIMEOUT * 2;
  while (vs.readFile('consts.js') !== text) {
    if (Date.now() > deadline) assert.equal(vs.readFile('consts.js'), text, what);
    await vs.page.waitForTimeout(200); // polling the disk
  }
}

const lens = (page: Page, title: string) => page.locator('.monaco-diff-editor .codelens-decoration a', { hasText: title });
const label = (page: Page, text: string) => page.locator('.monaco-diff-editor .codelens-decoration', { hasText: text }).first();

async function rejectHunk(page: Page, nth: number, reason: string): Promise<void> {
  await lens(page, 'Reject hunk').nth(nth).click();
  const box = page.locator('.quick-input-widget input.input');
  await box.waitFor({ state: 'visible' });
  await box.fill(reason);
  await page.keyboard.press('Enter');
}

e2eTest(
  "Apply Again's review: each hunk decided there is the recorded patch's hunk, in the history and in the chat",
  async (vs) => {
    const { page } = vs;
    await page.setViewportSize({ width: 1280, height: 720 });
    const chat = await sendInChat(vs, GOAL);

    // The run's review: hunks 1 and 3 accepted, hunk 2 rejected.
    await lens(page, 'Accept hunk')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await lens(page, 'Accept hunk').nth(0).click();
    await label(page, 'Hunk 1/3 (accepted)').waitFor({ state: 'visible' });
    await rejectHunk(page, 1, 'b stays as it is');
    await label(page, 'Hunk 2/3 (rejected)').waitFor({ state: 'visible' });
    await lens(page, 'Accept hunk').nth(2).click();
    await waitForDisk(vs, RUN_WROTE, 'the run wrote hunks 1 and 3');
    await vs.openViewContainer('PatchPilot');
    await chat
      .getByText('Added the semicolons you kept.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat.getByText('Written to consts.js: 2 of 3 hunks').first().waitFor({ state: 'visible' });

    // Undone in the chat; the history, open on the run, says so.
    await getByRoleIn(chat, 'button', 'Undo Patch to consts.js').click();
    await waitForDisk(vs, BEFORE, 'the undo put the file back');
    await vs.runCommand('PatchPilot: Show History');
    const panel = await editorWebviewFrame(page, 'PatchPilot History');
    await getByRoleIn(panel, 'listbox', 'Runs')
      .getByRole('option', { name: new RegExp(`^${GOAL}`) })
      .click();
    const detail = panel.getByRole('region', { name: 'Run details' });
    await detail.getByText(/^2 of 3 hunks applied, then undone by you/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    // Apply Again, reviewed: the two written hunks, numbered afresh.
    await detail.getByRole('button', { name: 'Apply again: patch to consts.js' }).click();
    await label(page, 'Hunk 1/2 (pending)').waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await label(page, 'Hunk 2/2 (pending)').waitFor({ state: 'visible' });
    await lens(page, 'Accept hunk').nth(0).click();
    await label(page, 'Hunk 1/2 (accepted)').waitFor({ state: 'visible' });

    // Before any write: the review's hunk 1 is the recorded hunk 1 in the history. The review says
    // nothing about its own patch having been undone (that is why it is applied again).
    assert.equal(await page.locator('.monaco-diff-editor .codelens-decoration', { hasText: 'since this review opened' }).count(), 0);
    assert.equal(vs.readFile('consts.js'), BEFORE, 'nothing is written before the review is answered');
    await page
      .getByRole('tab', { name: /^PatchPilot History/ })
      .first()
      .click();
    await detail.getByText(/consts\.js#1 lines 1–2: accepted, not written yet/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.screenshot('apply-again-review-accepted-light');

    // The review's hunk 2 rejected: it is the recorded hunk 3, and the write has hunk 1 only.
    await page
      .getByRole('tab', { name: /^consts\.js \(PatchPilot proposal/ })
      .first()
      .click();
    await rejectHunk(page, 1, 'c later');
    await waitForDisk(vs, AGAIN_WROTE, 'Apply Again wrote the hunk accepted in its review, no other');
    await chat.getByText('Written to consts.js: 2 of 3 hunks (applied again by you: 1 of 3 hunks)').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat
      .getByText(/^consts\.js:\S+ · not written \(rejected in the review of Apply Again\)$/)
      .first()
      .waitFor({ state: 'visible' });
    await page
      .getByRole('tab', { name: /^PatchPilot History/ })
      .first()
      .click();
    await detail.getByText(/^1 of 3 hunks applied, later applied again by you/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await detail.getByText(/consts\.js#3 lines 17–19: rejected \(your reason: rejected in the review of Apply Again\)/).waitFor({ state: 'visible' });
    // The run's own rejection of hunk 2 is unchanged.
    await detail.getByText(/consts\.js#2 lines 9–11: rejected \(your reason: b stays as it is\)/).waitFor({ state: 'visible' });
    await vs.screenshot('apply-again-review-written-light');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'consts.js': BEFORE }, settings },
);
