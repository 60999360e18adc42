// The conversation stays beside the review, in a real VS Code: with a patch waiting for Accept, the
// model's explanation of it, the card's Accept and the message box's Send are all in view at
// 1280x720, 1400x900 and in a 757-px-tall window, in the dark and the light theme (screenshots of
// each). Only the conversation scrolls; the card sits at its end, its patch text folded.
import assert from 'node:assert/strict';
import type { Frame, Locator } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const OLD = Array.from({ length: 60 }, (_, i) => `const value${i} = ${i};`);
const PATCH = ['--- a/wide.js', '+++ b/wide.js', `@@ -1,60 +1,60 @@`, ...OLD.map((l) => `-${l}`), ...OLD.map((l) => `+${l.replace('const', 'let')}`), ''].join(
  '\n',
);
const EXPLANATION = 'The values are reassigned later, so each const becomes let: sixty lines, one change each.';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1400, height: 900 },
  { width: 1280, height: 757 },
];

function settingsFor(theme: string): Record<string, unknown> {
  return { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask', 'workbench.colorTheme': theme };
}

/** Whether the element is wholly inside the chat's frame (the view) and, for the conversation, inside its scrolling region. */
async function inView(chat: Frame, target: Locator): Promise<boolean> {
  const viewport = await chat.evaluate(() => ({ height: document.documentElement.clientHeight }));
  return target.evaluate((e, height) => {
    const r = e.getBoundingClientRect();
    const scroller = e.closest('.pp-scroll')?.getBoundingClientRect();
    const within = !scroller || (r.top >= scroller.top - 1 && r.bottom <= scroller.bottom + 1);
    return r.height > 0 && r.top >= 0 && r.bottom <= height + 1 && within;
  }, viewport.height);
}

for (const theme of ['Default Dark Modern', 'Default Light Modern']) {
  const settings = settingsFor(theme);
  useScriptedModel([{ reply: { text: EXPLANATION, toolCalls: [{ name: 'propose_patch', arguments: { patch: PATCH } }] } }], settings);
  e2eTest(
    `a waiting patch keeps the explanation, Accept and Send in view at every size (${theme})`,
    async (vs) => {
      const chat = await sendInChat(vs, 'Make the values reassignable');
      const card = chat.getByRole('region', { name: /^Approval needed: patch to wide\.js/ });
      await card.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
      const accept = getByRoleIn(chat, 'button', /^Accept patch to wide\.js/);
      const send = getByRoleIn(chat, 'button', 'Send');
      const explanation = chat.getByText(EXPLANATION).first();
      for (const size of SIZES) {
        await vs.page.setViewportSize(size);
        await chat.waitForTimeout(800); // the workbench and the view lay out again
        for (const [what, target] of [
          ['the explanation', explanation],
          ['Accept', accept],
          ['Send', send],
        ] as const)
          assert.ok(await inView(chat, target), `${what} is out of view at ${size.width}x${size.height} (${theme})`);
        await vs.screenshot(`chat-review-${theme.includes('Light') ? 'light' : 'dark'}-${size.width}x${size.height}`);
      }
      // The patch text is folded under the actions, and opens by keyboard.
      const fold = card.locator('summary', { hasText: 'Patch text (' });
      await fold.focus();
      await vs.page.keyboard.press('Enter');
      await card.locator('.pp-approval-detail').waitFor({ state: 'visible' });
      assert.ok(await inView(chat, send), 'Send stays in view with the patch text open');
      await accept.click();
      await card.waitFor({ state: 'hidden', timeout: E2E_TIMEOUT });
    },
    { files: { 'wide.js': OLD.join('\n') + '\n' }, settings },
  );
}
