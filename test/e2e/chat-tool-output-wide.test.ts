// A tool row's output with long lines stays in the sidebar, in a real VS Code at 1280x720: the
// propose_patch row of a refused patch whose lines are 400 characters long scrolls sideways inside
// its own box (never past the sidebar's edge), and the box takes the keyboard focus so the arrow
// keys scroll it. Screenshots in light and dark. Skipped with the
// reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const LONG = 'y'.repeat(400);
const FILE = `const value = "${LONG}";\n`;
// One character off: refused, and the refusal quotes the file's long line as the nearest candidate.
const PATCH = ['--- a/wide.js', '+++ b/wide.js', '@@ -1 +1 @@', `-const value = "${LONG}x";`, `+const value = "${LONG}z";`, ''].join('\n');

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
  'workbench.colorTheme': 'Default Light Modern',
};

useScriptedModel(
  [
    { reply: { text: 'Widening the value.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'The patch did not apply; the line differs.' } },
  ],
  settings,
);

/** Where the expanded propose_patch output sits against the sidebar, and how it scrolls. */
async function outputBox(chat: Frame): Promise<{ right: number; width: number; scrolls: boolean; pageWidth: number; pageScroll: number }> {
  return chat
    .locator('.pp-tool-output')
    .first()
    .evaluate((e) => {
      const r = e.getBoundingClientRect();
      return {
        right: r.right,
        width: document.documentElement.clientWidth,
        scrolls: e.scrollWidth > e.clientWidth,
        pageWidth: document.documentElement.clientWidth,
        pageScroll: document.documentElement.scrollWidth,
      };
    });
}

e2eTest(
  'a tool row with long lines scrolls inside its own box, by keyboard too, in light and dark',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 720 });
    const chat = await sendInChat(vs, 'Widen the value');
    await chat
      .getByText('The patch did not apply; the line differs.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat.locator('.pp-tool summary', { hasText: 'propose_patch' }).first().click();
    const output = chat.getByRole('region', { name: 'Output of propose_patch' }).first();
    await output.waitFor({ state: 'visible' });
    // The refusal quotes the file's line (the engine shortens it past a length; still wider than the sidebar).
    assert.match((await output.textContent()) ?? '', /const value = "y{20}/, 'the long line is quoted in the output');

    const box = await outputBox(chat);
    assert.ok(box.right <= box.width + 1, `the output ends at ${Math.round(box.right)}px of ${box.width}px`);
    assert.ok(box.pageScroll <= box.pageWidth + 1, `the page is ${box.pageScroll}px wide in ${box.pageWidth}px`);
    assert.ok(box.scrolls, 'the long lines scroll inside the box');
    await vs.screenshot('chat-tool-output-wide-light');

    // By keyboard: the box takes the focus, the arrow keys scroll it sideways.
    await output.focus();
    assert.equal(await output.evaluate((e) => e === document.activeElement), true, 'the box takes the focus');
    for (let i = 0; i < 5; i++) await vs.page.keyboard.press('ArrowRight');
    await vs.page.waitForTimeout(300); // smooth scrolling
    const left = await output.evaluate((e) => e.scrollLeft);
    assert.ok(left > 0, 'ArrowRight scrolled the box sideways');

    vs.writeFile('.vscode/settings.json', JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }, null, 2));
    await vs.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    await chat.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    const dark = await outputBox(chat);
    assert.ok(dark.right <= dark.width + 1, `dark: the output ends at ${Math.round(dark.right)}px of ${dark.width}px`);
    await vs.screenshot('chat-tool-output-wide-dark');
  },
  { files: { 'wide.js': FILE }, settings },
);
