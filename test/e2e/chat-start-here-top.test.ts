// The empty chat's start page in a short window, as a newcomer first sees it: it opens at its top, the
// heading "What PatchPilot can do" in view, even when the page is taller than the view and its lists
// ("Try: ...") arrive after it is drawn; the first message is then followed at the conversation's end.
// Before that first run the project has no .patchpilot/ folder: activating and showing the chat write nothing there.
// Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Locator } from 'playwright-core';
import { useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask' };
useScriptedModel([{ reply: { text: 'Nothing to change.' } }], settings);

/** Whether the element is inside the chat's scrolling region as it is scrolled now. */
function inScrolledView(target: Locator): Promise<boolean> {
  return target.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const scroller = e.closest('.pp-scroll')!.getBoundingClientRect();
    return r.height > 0 && r.top >= scroller.top - 1 && r.bottom <= scroller.bottom + 1;
  });
}

e2eTest(
  'start here: the empty chat opens at its heading in a short window, not scrolled to its end',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1100, height: 520 });
    await vs.openViewContainer('PatchPilot');
    const chat = await vs.webviewFrame('PatchPilot');
    const start = chat.getByRole('region', { name: 'Start here' });
    const heading = start.getByRole('heading', { name: 'What PatchPilot can do' });
    await heading.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // The project's goals arrive after the page is drawn and make it taller than the view.
    const tryGoal = start.getByRole('button', { name: /^Try: / }).last();
    await tryGoal.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.waitForTimeout(500); // the view lays out the arrived lists
    const tall = await start.evaluate((e) => e.closest('.pp-scroll')!.scrollHeight > e.closest('.pp-scroll')!.clientHeight);
    assert.ok(tall, 'the start page fits the view: the test needs a shorter window to mean anything');
    await vs.screenshot('chat-start-here-short-window');
    assert.ok(await inScrolledView(heading), 'the start page opened scrolled away from its heading');
    await chat.waitForTimeout(2_500); // past the history's save delay (2 s at most), had opening written anything
    assert.equal(existsSync(path.join(vs.workspace, '.patchpilot')), false, 'activation made a .patchpilot folder before any run');

    await getByRoleIn(chat, 'textbox', 'Message PatchPilot').fill('anything to change?');
    await getByRoleIn(chat, 'button', 'Send').click();
    const reply = chat.getByText('Nothing to change.').first();
    await reply.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat.waitForTimeout(500);
    assert.ok(await inScrolledView(reply), 'the first reply is followed at the end');
    assert.ok(existsSync(path.join(vs.workspace, '.patchpilot')), 'the run made its state folder');
  },
  {
    files: { 'package.json': JSON.stringify({ name: 'adder', scripts: { test: 'node --test' } }, null, 2), 'add.js': 'exports.add = (a, b) => a + b;\n' },
    settings,
  },
);
