// Per-hunk review in a real VS Code, as a person does it: a two-hunk patch opens in the native diff
// editor, the first hunk accepted with the keyboard (Alt+Y on its line), "Reject hunk" on the second
// with a typed reason. The file on disk gets exactly the accepted hunk, the reason reaches the
// model, and the test task runs after the edit with its exit code in the chat and in what the model
// is told.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const filler = Array.from({ length: 8 }, (_, i) => `// line ${i + 1} between the two functions`);
const BEFORE = [
  'function area(w, h) {',
  '  return w * h',
  '}',
  ...filler,
  'function perimeter(w, h) {',
  '  return 2 * w + h;',
  '}',
  'module.exports = { area, perimeter };',
  '',
].join('\n');
const PATCH = [
  '--- a/shapes.js',
  '+++ b/shapes.js',
  '@@ -1,3 +1,3 @@',
  ' function area(w, h) {',
  '-  return w * h',
  '+  return w * h;',
  ' }',
  '@@ -12,3 +12,3 @@',
  ' function perimeter(w, h) {',
  '-  return 2 * w + h;',
  '+  return 2 * (w + h);',
  ' }',
  '',
].join('\n');
const EXPECTED = BEFORE.replace('  return w * h\n', '  return w * h;\n');
const REASON = 'leave perimeter alone, another change fixes it';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
  'patchpilot.tests.commands': ['node check.js'],
  'diffEditor.codeLens': true,
};

const scripted = useScriptedModel(
  [
    { reply: { text: 'Two fixes in shapes.js.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Understood: only the semicolon went in.' }, expect: { anyMessageContains: REASON } },
  ],
  settings,
);

e2eTest(
  'per hunk: Accept one hunk, Reject the other with a reason; disk, model and test task agree',
  async (vs) => {
    const chat = await sendInChat(vs, 'Fix the shapes module');
    const lens = (title: string) => vs.page.locator('.monaco-diff-editor .codelens-decoration a', { hasText: title });
    await lens('Accept hunk')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.screenshot('hunks-review');
    assert.equal(vs.readFile('shapes.js'), BEFORE, 'nothing is written before the decisions');

    // The first hunk with the keyboard: the cursor on its changed line in the proposal, then Alt+Y.
    await vs.page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: 'return w * h;' }).first().click();
    await vs.page.keyboard.press('Alt+Y');
    await vs.page.locator('.monaco-diff-editor .codelens-decoration', { hasText: 'Hunk 1/2 (accepted)' }).first().waitFor({ state: 'visible' });
    await lens('Reject hunk').last().click();
    const box = vs.page.locator('.quick-input-widget input.input');
    await box.waitFor({ state: 'visible' });
    // The box names the hunk in words, not by its internal id.
    await vs.page.locator('.quick-input-widget .quick-input-title', { hasText: 'Reject hunk 2 of shapes.js' }).waitFor({ state: 'visible' });
    await box.fill(REASON);
    await vs.page.keyboard.press('Enter');

    const deadline = Date.now() + E2E_TIMEOUT * 2;
    while (vs.readFile('shapes.js') !== EXPECTED) {
      if (Date.now() > deadline) assert.equal(vs.readFile('shapes.js'), EXPECTED, 'exactly the accepted hunk is on disk');
      await vs.page.waitForTimeout(200); // polling the disk
    }
    await vs.openViewContainer('PatchPilot');
    await chat
      .getByText('Understood: only the semicolon went in.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat.getByText('Tests failed (exit 3)').first().waitFor({ state: 'visible' });
    // What happened, in words: how much of the patch went in, which hunk the user rejected and why.
    await chat.getByText('You accepted 1 of 2 hunks of the patch.').first().waitFor({ state: 'visible' });
    await chat.getByText(`You rejected hunk 2 of shapes.js: ${REASON}`).first().waitFor({ state: 'visible' });
    await chat.getByText('Written to shapes.js: 1 of 2 hunks').first().waitFor({ state: 'visible' });
    await vs.screenshot('hunks-done');
    assert.deepEqual(scripted.server.mismatches, []);
    const told = JSON.stringify(scripted.server.requests.at(-1)?.body);
    assert.match(told, /rejected by the user/);
    assert.match(told, /exit 3/);
  },
  { files: { 'shapes.js': BEFORE, 'check.js': "console.log('perimeter still wrong'); process.exit(3);\n" }, settings },
);
