// A pending patch card by keyboard alone, in a real VS Code at 1280x720 (ask mode, the diff review
// open): Tab goes through the card's actions in the documented order (Accept, Reject, Show Hunk
// Buttons while VS Code hides them, the reason box, then the patch text's disclosure, see
// docs/benchmarks.md "VS Code extension"), Shift+Tab walks it back; Space operates Show Hunk Buttons
// and Enter operates Accept, which writes the patch. Screenshots in light and dark. Skipped with the
// reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import type { Frame } from 'playwright-core';
import { sendInChat } from './support/chat';
import { GREETING_AFTER, GREETING_BEFORE, GREETING_FIXED, useGreetingFix } from './support/greetingFix';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const TITLE = 'patch to greet.js';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'ask',
  'workbench.colorTheme': 'Default Light Modern',
};
const scripted = useGreetingFix(settings);

/** The documented order of a pending patch card's actions, by accessible name. */
const ORDER = [`Accept ${TITLE}`, `Reject ${TITLE}`, 'Show Hunk Buttons', `Reason for rejecting the ${TITLE}`, /^Patch text \(\d+ lines?\)$/];

/** The focused element's accessible name (aria-label, else its text), and whether it is inside the pending card. */
function focused(chat: Frame): Promise<{ name: string; inCard: boolean }> {
  return chat.evaluate(() => {
    const e = document.activeElement as HTMLElement | null;
    const name = (e?.getAttribute('aria-label') ?? e?.textContent ?? '').trim();
    return { name, inCard: !!e?.closest('.pp-approval') };
  });
}

function matches(name: string, expected: string | RegExp): boolean {
  return typeof expected === 'string' ? name.startsWith(expected) : expected.test(name);
}

e2eTest(
  'a pending patch card by keyboard: Tab reaches each action in the documented order; Space and Enter operate them',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 720 });
    const chat = await sendInChat(vs, 'Fix the typo in the greeting');
    await vs.page
      .locator('.monaco-diff-editor')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    // The preview's first diff takes the focus (per-hunk Alt+Y / Alt+N work there): once it has, the
    // walk through the card below is not cut short by that focus landing mid-walk on a slow machine.
    await vs.page.waitForFunction(() => !!document.activeElement?.closest('.monaco-diff-editor'), null, { timeout: E2E_TIMEOUT * 2 });
    await vs.openViewContainer('PatchPilot');
    const accept = getByRoleIn(chat, 'button', new RegExp(`^Accept ${TITLE}`));
    await accept.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    // Forward from Accept: every action once, in order, then out of the card.
    await accept.focus();
    const seen: string[] = [];
    for (let i = 0; i < ORDER.length + 3; i++) {
      const f = await focused(chat);
      if (!f.inCard) break;
      seen.push(f.name);
      await vs.page.keyboard.press('Tab');
    }
    assert.equal(seen.length, ORDER.length, `the card's tab stops: ${JSON.stringify(seen)}`);
    ORDER.forEach((expected, i) => assert.ok(matches(seen[i]!, expected), `tab stop ${i + 1}: ${seen[i]} (expected ${String(expected)})`));
    // And back: Shift+Tab from the last stop walks the same stops in reverse.
    await vs.page.keyboard.press('Shift+Tab');
    const back: string[] = [];
    for (let i = 0; i < ORDER.length; i++) {
      back.push((await focused(chat)).name);
      if (i < ORDER.length - 1) await vs.page.keyboard.press('Shift+Tab');
    }
    assert.deepEqual(back, [...seen].reverse(), 'Shift+Tab walks the card backwards');
    await vs.screenshot('chat-card-keyboard-light');

    // Space on the patch text's disclosure opens it; Space on Show Hunk Buttons turns the buttons on.
    const fold = chat.locator('.pp-approval details.pp-approval-fold');
    await fold.locator('summary').focus();
    await vs.page.keyboard.press('Space');
    await chat.locator('.pp-approval details.pp-approval-fold[open]').waitFor({ timeout: E2E_TIMEOUT });
    await getByRoleIn(chat, 'button', 'Show Hunk Buttons').focus();
    await vs.page.keyboard.press('Space');
    await getByRoleIn(chat, 'button', 'Show Hunk Buttons').waitFor({ state: 'detached', timeout: E2E_TIMEOUT });

    // Dark, then Enter on Accept: the patch is written and the run goes on.
    vs.writeFile('.vscode/settings.json', JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }, null, 2));
    await chat.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    await accept.focus();
    await vs.screenshot('chat-card-keyboard-dark');
    await vs.page.keyboard.press('Enter');
    await chat
      .getByText(GREETING_FIXED)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(vs.readFile('greet.js'), GREETING_AFTER);
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'greet.js': GREETING_BEFORE }, settings },
);
