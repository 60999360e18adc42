// A patch that does not fit the file, as the user meets it in the chat: one clear "does not apply"
// with the engine's reason shown once in its own layout, nothing written, no review opened, and the
// model told why so it can read the file again. A tool call with broken JSON arguments shows as a
// failed call, and the model is shown what it sent.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const FILE = "module.exports = () => 'hello';\n";
const WRONG = ['--- a/greet.js', '+++ b/greet.js', '@@ -1 +1 @@', "-module.exports = () => 'goodbye';", "+module.exports = () => 'farewell';", ''].join('\n');

const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask' };
const scripted = useScriptedModel(
  [
    { reply: { text: 'Changing the farewell.', toolCalls: [{ name: 'propose_patch', arguments: { patch: WRONG } }] } },
    { reply: { text: 'Reading it again.', toolCalls: [{ name: 'read_file', arguments: '{"path": "greet.js", ' }] }, expect: { anyMessageContains: 'goodbye' } },
    { reply: { text: 'The file says hello; there is no farewell to change.' }, expect: { anyMessageContains: 'You sent: {"path": "greet.js", ' } },
  ],
  settings,
);

e2eTest(
  'a patch that does not apply: one clear refusal with the reason, nothing written; a broken tool call shows as failed',
  async (vs) => {
    const chat = await sendInChat(vs, 'Change the farewell in greet.js');
    await chat
      .getByText('The file says hello; there is no farewell to change.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat.getByText('Patch does not apply; nothing was written', { exact: true }).waitFor();
    // One sentence a person reads, the engine's report behind Details (once, in its own block).
    await chat
      .getByText("The patch expects `module.exports = () => 'goodbye';` at line 1 of greet.js; the file has `module.exports = () => 'hello';`.")
      .waitFor();
    assert.equal(await chat.locator('.pp-patch pre').count(), 1, 'the reason is shown once, in its own block');
    await chat.locator('.pp-patch summary', { hasText: 'Details' }).click();
    await chat.locator('.pp-patch pre', { hasText: 'nearest candidate at line 1' }).waitFor({ state: 'visible' });
    await chat.locator('details.pp-tool', { hasText: 'read_file' }).getByText('failed', { exact: true }).waitFor();
    await vs.screenshot('patch-refused');
    assert.equal(await vs.page.locator('.monaco-diff-editor').count(), 0, 'no review opened for a patch that cannot apply');
    assert.equal(vs.readFile('greet.js'), FILE);
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': FILE }, settings },
);
