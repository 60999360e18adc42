// The review answered from the chat: while the native diff editor shows the patch, the chat shows
// the same review as a card; "Reject" there with a typed reason closes the review, writes nothing
// and tells the model why. The typed reason and an opened tool call survive the view being hidden
// and shown again (the view is rebuilt then, and must not come back empty or collapsed).
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const BEFORE = "module.exports = () => 'helo, world';\n";
const PATCH = ['--- a/greet.js', '+++ b/greet.js', '@@ -1 +1 @@', `-${BEFORE.trimEnd()}`, "+module.exports = () => 'hello, world';", ''].join('\n');
const REASON = 'keep the typo, a test depends on it';

const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask' };
const scripted = useScriptedModel(
  [
    { reply: { text: 'Fixing the greeting.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Leaving the greeting as it is.' }, expect: { anyMessageContains: REASON } },
  ],
  settings,
);

e2eTest(
  'chat review card: Reject with a reason from the chat closes the diff review and writes nothing',
  async (vs) => {
    const chat = await sendInChat(vs, 'Fix the typo in the greeting');
    await vs.page
      .locator('.monaco-diff-editor')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.openViewContainer('PatchPilot');
    await getByRoleIn(chat, 'textbox', /^Reason for rejecting the patch to greet\.js/).fill(REASON);
    await vs.screenshot('review-card');
    // The reader opens the tool call too: shown again, the view keeps it open.
    await chat.locator('details.pp-tool > summary', { hasText: 'propose_patch' }).click();
    await chat.locator('details.pp-tool[open]', { hasText: 'propose_patch' }).waitFor();
    await vs.openViewContainer('Explorer');
    await vs.openViewContainer('PatchPilot');
    const shown = await vs.webviewFrame('PatchPilot');
    const reason = getByRoleIn(shown, 'textbox', /^Reason for rejecting the patch to greet\.js/);
    await reason.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // The snapshot the host sends on showing arrives a moment later: give it the time to (not) wipe the text.
    await shown.getByText('Fix the typo in the greeting').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.page.waitForTimeout(1000); // letting a late redraw happen, if there is one
    assert.equal(await reason.inputValue(), REASON, 'the typed reason is still there');
    assert.equal(await shown.locator('details.pp-tool[open]', { hasText: 'propose_patch' }).count(), 1, 'the opened tool call is still open');
    await getByRoleIn(shown, 'button', /^Reject patch to greet\.js/).click();
    await shown
      .getByText('Leaving the greeting as it is.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(await vs.page.locator('.monaco-diff-editor').count(), 0, 'the review closed');
    assert.equal(vs.readFile('greet.js'), BEFORE);
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': BEFORE }, settings },
);
