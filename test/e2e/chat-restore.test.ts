// "Restore to Here" in a real VS Code (code-server + Chromium), as a person does it: a run edits
// greet.js with a patch and creates greet.copy.js with a command; "Restore to Here, before this message"
// on the user's message shows the preview (both files, before anything is written), "Restore 2 files"
// puts the workspace back, "Redo restore ..." puts the run's result back. A file the user edited
// after the run blocks the restore (named, nothing written) and "Restore the rest" restores the
// others. A reload keeps the buttons. The history panel restores a step the same way, and the agent's next turn is told.
// Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { editorWebviewFrame } from './support/editorWebview';
import { e2eTest } from './support/session';
import type { Frame, Locator } from 'playwright-core';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const BEFORE = "module.exports = () => 'helo, world';\n";
const AFTER = "module.exports = () => 'hello, world';\n";
const USER = "module.exports = () => 'Hello, World!';\n";
const PATCH = "--- a/greet.js\n+++ b/greet.js\n@@ -1 +1 @@\n-module.exports = () => 'helo, world';\n+module.exports = () => 'hello, world';\n";
const COMMAND = 'cp greet.js greet.copy.js';
const GOAL = 'Fix the greeting and keep a copy';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
};

const scripted = useScriptedModel(
  [
    { reply: { text: 'Fixing the typo.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Keeping a copy.', toolCalls: [{ name: 'run_command', arguments: { command: COMMAND } }] } },
    { reply: { text: 'Fixed greet.js and copied it.' } },
    { reply: { text: 'I see you restored files; I will read them again.' }, expect: { anyMessageContains: 'the user restored the workspace to before step' } },
  ],
  settings,
);

/** Exact names: "Restore to before step 1" is also part of "Redo restore to before step 1". */
const byRole = (where: Frame | Locator, role: 'button' | 'list' | 'textbox', name: string) => where.getByRole(role, { name, exact: true });

type Vs = { readFile(p: string): string; workspace?: string; page: { waitForTimeout(ms: number): Promise<void> } };

async function waitFor(vs: Vs, what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + E2E_TIMEOUT * 2;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
    await vs.page.waitForTimeout(200); // polling the disk
  }
}

const read = (vs: Vs, file: string) => {
  try {
    return vs.readFile(file);
  } catch {
    return undefined;
  }
};

e2eTest(
  'restore to here from the chat and the history: preview, restore, redo, a file the user changed blocks, restore the rest',
  async (vs) => {
    let chat = await sendInChat(vs, GOAL);
    await byRole(chat, 'button', `Approve command: ${COMMAND}`).click({ timeout: E2E_TIMEOUT * 2 });
    await chat
      .getByText('Fixed greet.js and copied it.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await waitFor(vs, 'the run result', () => read(vs, 'greet.js') === AFTER && read(vs, 'greet.copy.js') === AFTER);
    // Each step that changed files offers its restore.
    await byRole(chat, 'button', 'Restore to before step 1').waitFor({ state: 'visible' });
    await byRole(chat, 'button', 'Restore to before step 2').waitFor({ state: 'visible' });

    // Restore to before the message: the preview first, nothing written yet.
    await byRole(chat, 'button', 'Restore to Here, before this message').click();
    let preview = chat.getByRole('group', { name: 'Preview: Restore to Here, before this message' });
    const files = preview.getByRole('list', { name: 'Files the restore would change' });
    await files.getByText('restore greet.js').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await files.getByText('remove greet.copy.js (created by the run)').waitFor({ state: 'visible' });
    assert.equal(read(vs, 'greet.js'), AFTER, 'the preview writes nothing');
    // The diff opens in VS Code's own diff editor.
    await byRole(preview, 'button', 'Show diff of greet.js').click();
    await vs.page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.screenshot('chat-restore-preview');
    await byRole(preview, 'button', 'Restore 2 files').click();
    await waitFor(vs, 'the restore', () => read(vs, 'greet.js') === BEFORE && read(vs, 'greet.copy.js') === undefined);
    await chat
      .getByText(/You restored 2 files to before step 1/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    // A reload keeps the restore points and the Redo (the chat's saved entries draw them again).
    await vs.reload();
    await vs.openViewContainer('PatchPilot');
    chat = await vs.webviewFrame('PatchPilot');
    preview = chat.getByRole('group', { name: 'Preview: Restore to Here, before this message' });
    await byRole(chat, 'button', 'Restore to before step 2').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await byRole(chat, 'button', 'Restore to Here, before this message').waitFor({ state: 'visible' });
    // The patch the restore took back says so after the reload too (the restore is recorded with the run).
    await chat
      .getByText(/taken back by a restore/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    // Redo puts the run's result back.
    await byRole(chat, 'button', 'Redo restore to before step 1').click();
    await waitFor(vs, 'the redo', () => read(vs, 'greet.js') === AFTER && read(vs, 'greet.copy.js') === AFTER);
    await chat
      .getByText(/taken back by a restore/)
      .first()
      .waitFor({ state: 'hidden', timeout: E2E_TIMEOUT });
    await chat
      .getByText(/You redid the run's changes from step 1 on/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    // The user edits greet.js after the run: it blocks, and nothing is written until "Restore the rest".
    vs.writeFile('greet.js', USER);
    await byRole(chat, 'button', 'Restore to Here, before this message').click();
    const blocked = preview.getByRole('list', { name: 'Files that block the restore' });
    await blocked.getByText(/^greet\.js: changed since step 1/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await byRole(preview, 'button', 'Restore 1 file').count(), 0, 'no plain restore while a file blocks');
    await vs.screenshot('chat-restore-blocked');
    await byRole(preview, 'button', 'Restore the rest (1 file)').click();
    await waitFor(vs, 'the rest restored', () => read(vs, 'greet.copy.js') === undefined);
    assert.equal(read(vs, 'greet.js'), USER, "the user's edit stays");
    await chat
      .getByText(/greet\.js stayed as it was/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await byRole(chat, 'button', 'Redo restore to before step 1').click();
    await waitFor(vs, 'the second redo', () => read(vs, 'greet.copy.js') === AFTER);

    // The history panel: the run's steps that changed files, each with the same restore and preview.
    await vs.runCommand('PatchPilot: Show History');
    const panel = await editorWebviewFrame(vs.page, 'PatchPilot History');
    await getByRoleIn(panel, 'listbox', 'Runs')
      .getByRole('option', { name: new RegExp(`^${GOAL}`) })
      .click();
    const steps = panel.getByRole('region', { name: 'Steps that changed files' });
    await byRole(steps, 'button', 'Restore to before step 2').click({ timeout: E2E_TIMEOUT });
    const hPreview = panel.getByRole('group', { name: 'Preview: Restore to before step 2' });
    await hPreview.getByText('remove greet.copy.js (created by the run)').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await byRole(hPreview, 'button', 'Restore 1 file').click();
    await waitFor(vs, 'the history restore', () => read(vs, 'greet.copy.js') === undefined);
    assert.equal(read(vs, 'greet.js'), USER);
    await vs.screenshot('history-restore');

    // The agent hears of the restores at its next turn.
    await vs.openViewContainer('PatchPilot');
    await byRole(chat, 'textbox', 'Message PatchPilot').fill('Go on');
    await byRole(chat, 'button', 'Send').click();
    await chat
      .getByText('I see you restored files; I will read them again.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': BEFORE }, settings },
);
