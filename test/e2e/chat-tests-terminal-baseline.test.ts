// Test runs in task terminals with tests after edits ON (the default), in a real VS Code at 1280x720:
// every chat run starts with the baseline (the whole suite, "npm test") beside the model's first
// steps, and the model then runs the date tests narrowed ("npm test -- test/date.test.js"), in two
// chat runs one after the other. Every one of the four runs shows in its own task terminal with its
// own output (the test file numbers its runs, so a terminal showing an earlier run's text, or none,
// is told apart) and its end line; a run of a command replaces only that command's ended terminal;
// each test row's "Show Output" brings up its command's terminal. Screenshots in light and dark.
// Skipped with the reason when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import type { Frame, Page } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT } from './support/workbench';

const BASELINE = 'npm test';
const NARROWED = 'npm test -- test/date.test.js';
/** The date tests name the run they are in (1 for the first run of the file), counted in .runs. */
const DATE_TEST = [
  "const { test } = require('node:test');",
  "const assert = require('node:assert/strict');",
  "const fs = require('node:fs');",
  "const run = Number(fs.existsSync('.runs') ? fs.readFileSync('.runs', 'utf8') : '0') + 1;",
  "fs.writeFileSync('.runs', String(run));",
  "test(`parses dates (run ${run})`, () => assert.equal(new Date('2026-01-02T00:00:00Z').getUTCDate(), 2));",
  "test(`formats dates (run ${run})`, () => assert.equal(new Date('2026-01-02T00:00:00Z').toISOString().slice(0, 10), '02/01/2026'));",
  '',
].join('\n');
/** Only in the whole suite: the baseline runs more tests than the narrowed runs, so their narrowing is seen to work. */
const NAME_TEST = "const { test } = require('node:test');\ntest('names', () => {});\n";

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
  'patchpilot.tests.commands': ['npm test'],
  // Tests after edits ON, as by default: each chat run starts with its baseline test run.
  'patchpilot.tests.afterEdit': true,
  'workbench.colorTheme': 'Default Light Modern',
  // The DOM renderer: the terminal's text is in the page (the canvas one draws pixels).
  'terminal.integrated.gpuAcceleration': 'off',
  // Tabs even for one terminal: each terminal's name is on its tab.
  'terminal.integrated.tabs.hideCondition': 'never',
};

const narrowedRun = { name: 'run_tests', arguments: { files: ['test/date.test.js'] } };
const scripted = useScriptedModel(
  [
    { reply: { text: 'Running the date tests.', toolCalls: [narrowedRun] } },
    { reply: { text: 'The date formatting test fails: it expects 02/01/2026.' }, expect: { lastMessageContains: 'formats dates (run 2)' } },
    { reply: { text: 'Running them again.', toolCalls: [narrowedRun] } },
    { reply: { text: 'Still failing the same way.' }, expect: { lastMessageContains: 'formats dates (run 4)' } },
  ],
  settings,
);

/** The names on the terminal panel's tabs. */
async function terminalNames(page: Page): Promise<string[]> {
  return (await page.locator('#workbench\\.parts\\.panel .terminal-tabs-entry').allTextContents()).map((n) => n.trim());
}

/** The text the visible terminal shows (its rows, one line each). */
async function terminalText(page: Page): Promise<string> {
  const rows = page.locator('#workbench\\.parts\\.panel .terminal-wrapper.active .xterm-rows > div');
  return (await rows.allTextContents()).map((r) => r.trimEnd()).join('\n');
}

async function waitForTerminalText(page: Page, pattern: RegExp, what: string): Promise<string> {
  const deadline = Date.now() + E2E_TIMEOUT;
  let text = await terminalText(page);
  while (!pattern.test(text)) {
    if (Date.now() > deadline)
      assert.fail(`${what}: the terminal did not show ${pattern}; it shows:\n${text}\nthe terminal tabs: ${JSON.stringify(await terminalNames(page))}`);
    await page.waitForTimeout(200); // polling the terminal's rows
    text = await terminalText(page);
  }
  return text;
}

/** A test row's "Show Output" in the chat: the row that ends with the command and says the run's result. */
function showOutputOf(chat: Frame, command: string, nth: number) {
  const text = chat.locator('.pp-test-text', { hasText: new RegExp(`^Tests failed \\(exit 1\\)[\\s\\S]*· ${escape(command)}$`) });
  const rows = chat.locator('.pp-test-row').filter({ has: text });
  return rows.nth(nth).getByRole('button', { name: 'Show Output' });
}

/**
 * The run's terminal, brought up by its row's Show Output (mouse): it is the terminal of `command`
 * (VS Code's task line names it, then the command) showing run `run` of the date tests and no
 * other, to its end line. Read from its top, again until the terminal shown is the command's: the
 * terminal in front before the click may show an end line too.
 */
async function expectRunTerminal(
  vs: { page: Page; runCommand(title: string): Promise<void> },
  chat: Frame,
  command: string,
  nth: number,
  run: number,
): Promise<void> {
  const what = `run ${run} (${command})`;
  await showOutputOf(chat, command, nth).click();
  const shown = new RegExp(`Executing task: PatchPilot: ${escape(command)}\\n[\\s\\S]*parses dates \\(run \\d+\\)`);
  const deadline = Date.now() + E2E_TIMEOUT;
  let text = '';
  while (!shown.test(text)) {
    if (Date.now() > deadline)
      assert.fail(
        `${what}: the terminal in front is not its command's with test output; it shows:\n${text}\nthe terminal tabs: ${JSON.stringify(await terminalNames(vs.page))}`,
      );
    await vs.runCommand('Terminal: Scroll to Top');
    text = await terminalText(vs.page);
  }
  assert.match(text, new RegExp(`\\$ ${escape(command)}\\n`), `${what}: the command first:\n${text}`);
  assert.match(text, new RegExp(`parses dates \\(run ${run}\\)`), `${what}: its own run's output:\n${text}`);
  assert.doesNotMatch(text, new RegExp(`\\(run (?!${run}\\))`), `${what}: only its own run's output:\n${text}`);
  await vs.runCommand('Terminal: Scroll to Bottom');
  await waitForTerminalText(vs.page, /exit code 1 after \d+\.\d s/, what);
}

const exactly = (name: string) => (names: string[]) => names.filter((n) => n === name).length;

e2eTest(
  'tests after edits on: the baseline and every narrowed run of the same command show in their own task terminal with their output',
  async (vs) => {
    await vs.page.setViewportSize({ width: 1280, height: 720 });
    const chat = await sendInChat(vs, 'Run the date tests');
    await chat
      .getByText('The date formatting test fails: it expects 02/01/2026.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    // The baseline (run 1, the whole suite) and the model's narrowed run (run 2), each in its terminal.
    await expectRunTerminal(vs, chat, BASELINE, 0, 1);
    await expectRunTerminal(vs, chat, NARROWED, 0, 2);
    await vs.screenshot('chat-tests-terminal-baseline-light');

    // The second chat run: its baseline (run 3) and the same narrowed command again (run 4).
    await sendInChat(vs, 'Run them again');
    await chat
      .getByText('Still failing the same way.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(scripted.server.mismatches, []);
    await expectRunTerminal(vs, chat, NARROWED, 1, 4);
    await expectRunTerminal(vs, chat, BASELINE, 1, 3);
    // One terminal per command: each new run replaced its command's ended terminal.
    const names = await terminalNames(vs.page);
    assert.equal(exactly(BASELINE)(names), 1, `the terminal tabs: ${JSON.stringify(names)}`);
    assert.equal(exactly(NARROWED)(names), 1, `the terminal tabs: ${JSON.stringify(names)}`);

    // Dark: the workspace's theme setting, applied live; the narrowed run's terminal in front.
    vs.writeFile('.vscode/settings.json', JSON.stringify({ 'workbench.colorTheme': 'Default Dark Modern' }, null, 2));
    await vs.page.locator('.monaco-workbench.vs-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    await chat.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: E2E_TIMEOUT });
    await expectRunTerminal(vs, chat, NARROWED, 1, 4);
    await vs.screenshot('chat-tests-terminal-baseline-dark');
  },
  {
    files: {
      '.gitignore': '.runs\n',
      'package.json': JSON.stringify({ name: 'dates', scripts: { test: 'node --test' } }, null, 2),
      'test/date.test.js': DATE_TEST,
      'test/names.test.js': NAME_TEST,
    },
    settings,
  },
);

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
