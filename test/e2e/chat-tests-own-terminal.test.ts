// A test run that edits nothing, beside a user's own terminal of the same name, in a real VS Code at
// 1280x720: the user ran their own task labelled exactly like the test command, and its ended
// terminal stays; the agent's run_tests
// (it fails, no edit made) opens PatchPilot's task terminal beside it and never closes the user's,
// nor does the next run, which replaces only PatchPilot's ended terminal; "Show Output" reveals
// PatchPilot's terminal, not the user's. The run's end line says what happened: "tests failed (no
// edits made)", never "tests not run" beside the red test row. Screenshots in light and dark.
// Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const COMMAND = 'npm test -- test/date.test.js';
const DATE_TEST = [
  "const { test } = require('node:test');",
  "const assert = require('node:assert/strict');",
  "test('parses dates', () => assert.equal(new Date('2026-01-02T00:00:00Z').getUTCDate(), 2));",
  "test('formats dates', () => assert.equal(new Date('2026-01-02T00:00:00Z').toISOString().slice(0, 10), '02/01/2026'));",
  '',
].join('\n');

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
  'patchpilot.tests.commands': ['npm test'],
  // Tests after edits on, as by default: each chat run's baseline ("npm test") has its terminal beside the model's runs'.
  'patchpilot.tests.afterEdit': true,
  'workbench.colorTheme': 'Default Light Modern',
  // The DOM renderer: the terminal's text is in the page (the canvas one draws pixels).
  'terminal.integrated.gpuAcceleration': 'off',
  // Tabs even for one terminal: each terminal's name is on its tab.
  'terminal.integrated.tabs.hideCondition': 'never',
  // The user's own task runs as the folder opens, unasked.
  'task.allowAutomaticTasks': 'on',
};

const scripted = useScriptedModel(
  [
    { reply: { text: 'Running the date tests.', toolCalls: [{ name: 'run_tests', arguments: { files: ['test/date.test.js'] } }] } },
    { reply: { text: 'The date formatting test fails: it expects 02/01/2026.' }, expect: { lastMessageContains: 'formats dates' } },
    { reply: { text: 'Running them again.', toolCalls: [{ name: 'run_tests', arguments: { files: ['test/date.test.js'] } }] } },
    { reply: { text: 'Still failing the same way.' }, expect: { lastMessageContains: 'formats dates' } },
  ],
  settings,
);

/** The names on the terminal panel's tabs. */
async function terminalNames(page: Page): Promise<string[]> {
  return (await page.locator('#workbench\\.parts\\.panel .terminal-tabs-entry').allTextContents()).map((n) => n.trim());
}

async function waitForNames(page: Page, expected: (names: string[]) => boolean, what: string): Promise<string[]> {
  const deadline = Date.now() + E2E_TIMEOUT;
  let names = await terminalNames(page);
  while (!expected(names)) {
    if (Date.now() > deadline) assert.fail(`${what}; the terminal tabs: ${JSON.stringify(names)}`);
    await page.waitForTimeout(200); // polling the panel's tabs
    names = await terminalNames(page);
  }
  return names;
}

/** Clicks the terminal tabs in turn until the user's task terminal is the one shown. */
async function bringUserTerminalForward(page: Page): Promise<void> {
  const tabs = page.locator('#workbench\\.parts\\.panel .terminal-tabs-entry');
  for (let i = 0; i < (await tabs.count()); i++) {
    // Away first: the hover of the tab before (its "Rerun Task" button) would cover this tab.
    await page.mouse.move(0, 0);
    await page.waitForTimeout(500); // the hover fading
    await tabs.nth(i).click({ position: { x: 8, y: 8 } });
    const deadline = Date.now() + 3_000;
    while (Date.now() < deadline) {
      const text = await terminalText(page);
      if (/the user's own task/.test(text) && !/exit code 1 after/.test(text)) return;
      await page.waitForTimeout(200); // polling the terminal's rows
    }
  }
  assert.fail("no terminal tab shows the user's own task");
}

const named = (names: string[]) => names.filter((n) => n.includes(COMMAND)).length;

/** The text the visible terminal shows (its rows, one line each). */
async function terminalText(page: Page): Promise<string> {
  const rows = page.locator('#workbench\\.parts\\.panel .terminal-wrapper.active .xterm-rows > div');
  return (await rows.allTextContents()).map((r) => r.trimEnd()).join('\n');
}

async function waitForTerminalText(page: Page, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + E2E_TIMEOUT;
  while (!pattern.test(await terminalText(page))) {
    if (Date.now() > deadline) assert.fail(`the terminal did not show ${pattern}; it shows:\n${await terminalText(page)}`);
    await page.waitForTimeout(200); // polling the terminal's rows
  }
}

e2eTest(
  'a user\'s terminal named like the test command is never closed by PatchPilot\'s runs; a run without edits ends with "tests failed (no edits made)"',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 720 });
    // The user's own task, labelled exactly like the command the agent will run, ran as the folder
    // opened (runOn folderOpen): it ended, its terminal stays.
    await waitForNames(vs.page, (n) => named(n) === 1, "the user's task terminal did not open");
    await waitForTerminalText(vs.page, /the user's own task/);
    const chat = await sendInChat(vs, 'Run the date tests');
    await chat
      .getByText('The date formatting test fails: it expects 02/01/2026.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    // The end line says what ran: the tests failed, nothing was edited (not "tests not run").
    await chat.getByText('finished · tests failed (no edits made)').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat
      .getByText(/no edits made; the last test run FAILED/)
      .first()
      .waitFor({ state: 'visible' });
    assert.equal(await chat.getByText('tests not run').count(), 0, 'no "tests not run" beside a red test row');
    // The user's terminal and PatchPilot's, side by side.
    await waitForNames(vs.page, (n) => named(n) === 2, "PatchPilot's terminal did not join the user's");
    await vs.screenshot('chat-tests-own-terminal-light');

    // The next run replaces PatchPilot's ended terminal only.
    await sendInChat(vs, 'Run them again');
    await chat
      .getByText('Still failing the same way.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await vs.page.waitForTimeout(1000); // a closed terminal's tab goes within a frame or two: let it
    await waitForNames(vs.page, (n) => named(n) === 2, "the user's terminal or PatchPilot's is gone");
    assert.deepEqual(scripted.server.mismatches, []);

    // Show Output, by keyboard: PatchPilot's terminal (the runner's output), not the user's shell.
    // The user's terminal in front first (the tab whose terminal shows the user's task): its text is no test run's.
    await bringUserTerminalForward(vs.page);
    await vs.openViewContainer('PatchPilot');
    const show = getByRoleIn(chat, 'button', 'Show Output').last();
    await show.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await show.focus();
    await vs.page.keyboard.press('Enter');
    await waitForTerminalText(vs.page, /exit code 1 after/);

    vs.writeFile('.vscode/settings.json', JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }, null, 2));
    await vs.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    await chat.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    await vs.screenshot('chat-tests-own-terminal-dark');
  },
  {
    files: {
      '.vscode/tasks.json': JSON.stringify(
        {
          version: '2.0.0',
          tasks: [{ label: COMMAND, type: 'shell', command: "echo the user\\'s own task", problemMatcher: [], runOptions: { runOn: 'folderOpen' } }],
        },
        null,
        2,
      ),
      'package.json': JSON.stringify({ name: 'dates', scripts: { test: 'node --test' } }, null, 2),
      'test/date.test.js': DATE_TEST,
    },
    settings,
  },
);
