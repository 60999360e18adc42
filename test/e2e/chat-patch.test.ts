// The chat end to end in a real VS Code (code-server + Chromium): a goal typed in the chat, a
// scripted model that streams text and proposes a patch, the native diff review, Accept, the file
// on disk. Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const BEFORE = "module.exports = () => 'helo, world';\n";
const AFTER = "module.exports = () => 'hello, world';\n";
const PATCH = ['--- a/greet.js', '+++ b/greet.js', '@@ -1 +1 @@', `-${BEFORE.trimEnd()}`, `+${AFTER.trimEnd()}`, ''].join('\n');

// The server must be up before the test's options (its URL) are read: e2eTest takes them at declaration.
const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
  // The review's hunk buttons are CodeLens: on from the start, so no first-review prompt covers the editor.
  'diffEditor.codeLens': true,
};

const scripted = useScriptedModel(
  [
    { reply: { text: 'The greeting has a typo; here is the fix.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Fixed the greeting in greet.js.' } },
  ],
  settings,
);

e2eTest(
  'chat: a goal sent from "Message PatchPilot" streams the reply, the patch opens in the diff editor, Accept writes it',
  async (vs) => {
    const chat = await sendInChat(vs, 'Fix the typo in the greeting');

    // The streamed text shows in the conversation.
    await chat
      .getByText('The greeting has a typo')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });

    // The review: a native diff editor with the proposal on the right and Accept in its title bar.
    const accept = vs.page
      .locator('.editor-actions')
      .getByRole('button', { name: /^Accept\b/ })
      .first();
    await accept.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.page.locator('.monaco-diff-editor').first().waitFor({ state: 'visible' });
    // Per hunk too: the CodeLens above the proposed hunk (diffEditor.codeLens is on).
    await vs.page.locator('.monaco-diff-editor .codelens-decoration', { hasText: 'Accept hunk' }).first().waitFor({ state: 'visible' });
    assert.equal(vs.readFile('greet.js'), BEFORE, 'nothing is written before Accept');
    await vs.screenshot('chat-patch-review');
    await accept.click();

    // Accepted: the file on disk changes, and the run ends with the model's last words.
    const deadline = Date.now() + E2E_TIMEOUT * 2;
    while (vs.readFile('greet.js') !== AFTER) {
      if (Date.now() > deadline) assert.equal(vs.readFile('greet.js'), AFTER);
      await vs.page.waitForTimeout(200); // polling the disk
    }
    await chat
      .getByText('Fixed the greeting in greet.js.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.openViewContainer('PatchPilot');
    await vs.screenshot('chat-patch-done');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': BEFORE }, settings },
);
