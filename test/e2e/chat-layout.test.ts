// The chat's working line and layout in a real VS Code (code-server + Chromium), as a person meets
// them: while the model thinks, a status line says PatchPilot is working and for how long; a review
// card with a long patch line, a command card with a long command and a tool result with a long line
// stay inside the sidebar (they scroll or wrap in their own box); snake_case names in a reply keep
// their underscores; the chat has one New Chat control (the view's title button); after a reload
// the chat shows its end. Skipped with the reason when code-server is not installed and
// PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const LONG = 'y'.repeat(400);
const PATCH = ['--- a/wide.js', '+++ b/wide.js', '@@ -1 +1 @@', '-const value = 1;', `+const value = "${LONG}";`, ''].join('\n');
const COMMAND = `node print.js ${'--flag-'.repeat(30)}end`;
const FILLER = Array.from({ length: 40 }, (_, i) => `Line ${i + 1} of a long explanation.`).join('\n\n');

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
};

useScriptedModel(
  [
    // The model thinks for a few seconds before its first token.
    { reply: { delayMs: 4_000, text: 'Widening the value.', toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } },
    { reply: { text: 'Printing it.', toolCalls: [{ name: 'run_command', arguments: { command: COMMAND } }] } },
    { reply: { text: `Done: my_module_name and snake_case_value stay as written.\n\n${FILLER}\n\nThe last line of the reply.` } },
  ],
  settings,
);

/** Whether any of the chat's cards or outputs reaches past the sidebar's right edge (or the page scrolls sideways). */
async function overflowing(chat: Frame): Promise<string[]> {
  return chat.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width + 1) out.push(`the page is ${document.documentElement.scrollWidth}px wide in ${width}px`);
    for (const e of Array.from(document.querySelectorAll('.pp-approval, .pp-approval-detail, .pp-tool, .pp-tool-output, .pp-patch, .pp-msg'))) {
      const r = e.getBoundingClientRect();
      if (r.width > 0 && r.right > width + 1) out.push(`${e.className} ends at ${Math.round(r.right)}px of ${width}px`);
    }
    return out;
  });
}

e2eTest(
  'chat layout: a working line with elapsed time while the model thinks; long cards stay in the sidebar; one New Chat; the end shows after a reload',
  async (vs) => {
    const chat = await sendInChat(vs, 'Widen the value');
    // The model is thinking: a progress indicator says so, with the seconds counting.
    const working = chat.getByRole('progressbar', { name: 'Working: waiting for the model' });
    await working.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByText(/· [2-9] s/).waitFor({ state: 'visible', timeout: 10_000 });
    await vs.screenshot('chat-working');

    // The review card with a 400-character line: inside the sidebar.
    const card = chat.getByRole('region', { name: /^Approval needed: patch to wide\.js/ });
    await card.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(await overflowing(chat), []);
    await getByRoleIn(chat, 'button', /^Accept patch to wide\.js/).click();

    // The command card with a long command, then its long output.
    const command = chat.getByRole('region', { name: /^Approval needed: / }).filter({ hasText: 'print.js' });
    await command.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(await overflowing(chat), []);
    await command.getByRole('button', { name: /^Approve/ }).click();
    await chat
      .getByText('The last line of the reply.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await working.waitFor({ state: 'hidden', timeout: E2E_TIMEOUT });
    await chat.locator('.pp-tool summary', { hasText: 'run_command' }).first().click();
    await chat.locator('.pp-tool-output', { hasText: 'zzzz' }).first().waitFor({ state: 'visible' });
    assert.deepEqual(await overflowing(chat), []);
    // Underscores inside names are text, not emphasis.
    await chat
      .getByText(/my_module_name and snake_case_value stay as written/)
      .first()
      .waitFor({ state: 'visible' });
    await vs.screenshot('chat-layout-wide');

    // One New Chat: the view's title button, none in the webview.
    assert.equal(await getByRoleIn(chat, 'button', /New Chat/).count(), 0, 'no second New Chat inside the chat');
    await vs.page
      .getByRole('button', { name: /^New Chat/ })
      .first()
      .waitFor({ state: 'visible' });

    // After a reload, the chat shows its end.
    await vs.reload();
    await vs.openViewContainer('PatchPilot');
    const again = await vs.webviewFrame('PatchPilot');
    const last = again.getByText('The last line of the reply.').first();
    await last.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await again.waitForTimeout(1_000); // the view lays out (fonts, size) after it draws
    const inView = await last.evaluate((e) => {
      const log = e.closest('.pp-scroll')!.getBoundingClientRect();
      const r = e.getBoundingClientRect();
      return r.bottom <= log.bottom + 1 && r.top >= log.top - 1;
    });
    assert.ok(inView, 'the last line of the chat is in view after the reload');
    await vs.screenshot('chat-after-reload');
  },
  {
    files: {
      'wide.js': 'const value = 1;\n',
      'print.js': `console.log('${'z'.repeat(400)}');\n`,
    },
    settings,
  },
);
