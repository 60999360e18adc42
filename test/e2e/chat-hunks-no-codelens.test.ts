// Per-hunk review with VS Code's defaults (diffEditor.codeLens off, so no buttons above the hunks), as
// a person meets it: Alt+Y on a hunk's line visibly accepts it (the hover on its lines says so, the
// chat's review card lists it as accepted, the status bar sums up the review); "Show Hunk Buttons" on
// the card brings the buttons back, and "Reject hunk" on the other hunk ends the review with exactly
// the accepted hunk on disk.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const filler = Array.from({ length: 8 }, (_, i) => `// line ${i + 1} between the two functions`);
const BEFORE = ['function area(w, h) {', '  return w * h', '}', ...filler, 'function perimeter(w, h) {', '  return 2 * w + h;', '}', ''].join('\n');
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

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
  'diffEditor.codeLens': false,
};

const scripted = useScriptedModel(
  [
    { reply: { text: 'Two fixes in shapes.js.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Only the semicolon went in.' }, expect: { anyMessageContains: 'rejected by the user' } },
  ],
  settings,
);

e2eTest(
  'per hunk without CodeLens: Alt+Y shows the hunk accepted (hover, chat card, status bar); Show Hunk Buttons brings the buttons back',
  async (vs) => {
    const chat = await sendInChat(vs, 'Fix the shapes module');
    const hunks = getByRoleIn(chat, 'list', 'Hunks of the patch to shapes.js');
    await hunks.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.match(
      (await hunks.textContent()) ?? '',
      /Hunk 1 of 2 in shapes\.js, lines 1-3:\s*• undecided\s*Hunk 2 of 2 in shapes\.js, lines 12-14:\s*• undecided/,
    );
    assert.equal(await vs.page.locator('.monaco-diff-editor .codelens-decoration').count(), 0, 'VS Code hides CodeLens in diff editors');

    const line = vs.page.locator('.monaco-diff-editor .editor.modified .view-line', { hasText: 'return w * h;' }).first();
    await line.click();
    await vs.page.keyboard.press('Alt+Y');
    await hunks.getByText('✓ accepted').waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.page
      .locator('.statusbar-item', { hasText: 'PatchPilot review: 2 hunks: 1 accepted, 1 undecided' })
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // The hover on the hunk's lines says what happened to it (Ctrl+K Ctrl+I: the hover at the cursor).
    await line.click();
    await vs.page.keyboard.press('Control+K');
    await vs.page.keyboard.press('Control+I');
    await vs.page
      .locator('.monaco-hover', { hasText: 'PatchPilot: Hunk 1 of 2 in shapes.js, lines 1-3: accepted' })
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.screenshot('hunks-no-codelens');

    await getByRoleIn(chat, 'button', 'Show Hunk Buttons').click();
    const reject = vs.page.locator('.monaco-diff-editor .codelens-decoration a', { hasText: 'Reject hunk' });
    await reject.last().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await reject.last().click();
    const box = vs.page.locator('.quick-input-widget input.input');
    await box.waitFor({ state: 'visible' });
    await vs.page.keyboard.press('Enter');

    const deadline = Date.now() + E2E_TIMEOUT * 2;
    while (vs.readFile('shapes.js') !== EXPECTED) {
      if (Date.now() > deadline) assert.equal(vs.readFile('shapes.js'), EXPECTED, 'exactly the accepted hunk is on disk');
      await vs.page.waitForTimeout(200); // polling the disk
    }
    await vs.openViewContainer('PatchPilot');
    await chat
      .getByText('Only the semicolon went in.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'shapes.js': BEFORE }, settings },
);
