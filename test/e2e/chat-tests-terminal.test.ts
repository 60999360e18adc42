// Test runs in a task terminal, in a real VS Code at 1280x720: the agent's run_tests (sandboxed, run by
// the core's executor) appears as a task terminal named for the command ("npm test -- test/date.test.js",
// its first line "Executing task: PatchPilot: npm test -- ...", the source said once) with the test
// runner's output and its exit status; the terminal stays after the
// run; the chat's test row has "Show Output", which brings the terminal back after the panel was
// closed, by mouse and by keyboard. Screenshots in light and dark. Skipped with the reason when
// code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const COMMAND = 'npm test -- test/date.test.js';
const TERMINAL_NAME = COMMAND;
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
  // Tabs even for one terminal: the terminal's name is on its tab.
  'terminal.integrated.tabs.hideCondition': 'never',
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

/** The terminal panel's tab for the test run, by its accessible name ("Terminal 1 npm test ..."). */
function terminalTab(page: Page) {
  const panel = page.locator('#workbench\\.parts\\.panel');
  const name = new RegExp(escape(TERMINAL_NAME));
  return panel.getByRole('listitem', { name }).or(panel.getByRole('tab', { name })).or(panel.getByRole('option', { name })).first();
}

/** Waits for the test run's terminal tab; when it does not come, says what the panel holds. */
async function waitForTerminalTab(page: Page): Promise<void> {
  try {
    await terminalTab(page).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
  } catch (e) {
    const panel = await page
      .locator('#workbench\\.parts\\.panel')
      .ariaSnapshot()
      .catch(() => '(no panel)');
    throw new Error(`${(e as Error).message}\n--- the panel ---\n${panel}`);
  }
}

/** The text the visible terminal shows (its rows, one line each). */
async function terminalText(page: Page): Promise<string> {
  const rows = page.locator('#workbench\\.parts\\.panel .terminal-wrapper.active .xterm-rows > div');
  return (await rows.allTextContents()).map((r) => r.trimEnd()).join('\n');
}

async function waitForTerminalText(page: Page, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + E2E_TIMEOUT;
  let text = '';
  while (!pattern.test(text)) {
    if (Date.now() > deadline) assert.fail(`the terminal did not show ${pattern}; it shows:\n${text}`);
    await page.waitForTimeout(200); // polling the terminal's rows
    text = await terminalText(page);
  }
  return text;
}

async function panelVisible(page: Page): Promise<boolean> {
  return page
    .locator('#workbench\\.parts\\.panel')
    .isVisible()
    .catch(() => false);
}

async function closePanel(vs: { runCommand(title: string): Promise<void>; page: Page }): Promise<void> {
  // As a person hides it (Ctrl+J): the panel is visible here, so the toggle hides it.
  await vs.runCommand('View: Toggle Panel Visibility');
  await vs.page.locator('#workbench\\.parts\\.panel').waitFor({ state: 'hidden', timeout: E2E_TIMEOUT });
}

async function showOutputButton(chat: Frame) {
  const show = getByRoleIn(chat, 'button', 'Show Output').last();
  await show.waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
  return show;
}

e2eTest(
  "tests in a task terminal: the chat's test run is a terminal named for its command, with its output; Show Output reveals it",
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 720 });
    const chat = await sendInChat(vs, 'Run the date tests');
    await chat
      .getByText('The date formatting test fails: it expects 02/01/2026.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(scripted.server.mismatches, []);
    // The model read the same run: the failing test by name.
    assert.match(JSON.stringify(scripted.server.chatRequests.at(1)?.body), /formats dates/);

    // The run's row in the chat says how it ended, with its Show Output.
    await chat
      .getByText(new RegExp(`^Tests failed \\(exit 1\\)[\\s\\S]*· ${escape(COMMAND)}$`))
      .first()
      .waitFor({ state: 'visible' });

    // The task terminal came up as the run started and stays after it, named for the command.
    await waitForTerminalTab(vs.page);
    await waitForTerminalText(vs.page, /# fail 1[\s\S]*exit code 1 after \d+\.\d s/);
    // Its beginning (the panel shows the last rows): the command, then the runner's output.
    await vs.runCommand('Terminal: Scroll to Top');
    const text = await waitForTerminalText(vs.page, new RegExp(`\\$ ${escape(COMMAND)}`));
    assert.match(text, /parses dates/, "the test runner's output");
    // VS Code's own first line names the task's source once: "PatchPilot: npm test ...", never "PatchPilot: PatchPilot: ...".
    assert.match(text, new RegExp(`Executing task: PatchPilot: ${escape(COMMAND)}`), `the task's first line:\n${text}`);
    assert.doesNotMatch(text, /PatchPilot: PatchPilot/);
    await vs.screenshot('chat-tests-terminal-light');

    // Closed panel, then Show Output (mouse): the terminal is back with the same output.
    await closePanel(vs);
    await (await showOutputButton(chat)).click();
    await waitForTerminalTab(vs.page);
    assert.ok(await panelVisible(vs.page));
    // The same terminal, where the reader left it (scrolled to its top).
    await waitForTerminalText(vs.page, new RegExp(`\\$ ${escape(COMMAND)}[\\s\\S]*parses dates`));

    // The same by keyboard: focus on the button, Enter.
    await closePanel(vs);
    await vs.openViewContainer('PatchPilot');
    const show = await showOutputButton(chat);
    await show.focus();
    await vs.page.keyboard.press('Enter');
    await waitForTerminalTab(vs.page);
    // The same terminal, where the reader left it (scrolled to its top).
    await waitForTerminalText(vs.page, new RegExp(`\\$ ${escape(COMMAND)}[\\s\\S]*parses dates`));

    // Dark: the workspace's theme setting, applied live.
    vs.writeFile('.vscode/settings.json', JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }, null, 2));
    await vs.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    await vs.openViewContainer('PatchPilot');
    await chat.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    await waitForTerminalTab(vs.page);
    await vs.screenshot('chat-tests-terminal-dark');

    // A second run of the same command replaces the ended run's terminal: one terminal per command.
    await sendInChat(vs, 'Run them again');
    await chat
      .getByText('Still failing the same way.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await waitForTerminalTab(vs.page);
    await waitForTerminalText(vs.page, /exit code 1 after/);
    const names = await vs.page.locator('#workbench\\.parts\\.panel .terminal-tabs-entry').allTextContents();
    assert.equal(names.filter((n) => n.includes(TERMINAL_NAME)).length, 1, `the terminal tabs: ${JSON.stringify(names)}`);
  },
  {
    files: {
      'package.json': JSON.stringify({ name: 'dates', scripts: { test: 'node --test' } }, null, 2),
      'test/date.test.js': DATE_TEST,
    },
    settings,
  },
);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
