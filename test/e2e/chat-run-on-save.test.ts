// Run on save while a chat run works, in a real VS Code: the user saves a file, the test task runs,
// the chat says so, and its result reaches the working run's next model step as a message. The
// agent's own save (its patch) runs nothing on save, and a second save with the same result is not
// news: the chat says the model already knew it. Skipped with the reason when code-server is not
// installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, focusWorkbench } from './support/workbench';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.tests.commands': ['node check.js'],
  'patchpilot.tests.runOnSave': 'on',
  'patchpilot.approval.mode': 'auto-edit',
  // No tests after edits, so no baseline run at the start: the first save's passing run is then news to the model
  // (with a baseline, the model already knew that result, and the chat says it was not told again).
  'patchpilot.tests.afterEdit': false,
};
const AGENT_PATCH = ['--- a/agent.txt', '+++ b/agent.txt', '@@ -1 +1 @@', '-one', '+two', ''].join('\n');
const SAVED_NOTE = 'The user saved notes.txt and the tests ran';
/** How often the run-on-save note reached the model in one request. */
const notes = (body: unknown) => JSON.stringify(body).split(SAVED_NOTE).length - 1;

const scripted = useScriptedModel(
  [
    // A slow first step (about 15 s of streaming): the save and its test run happen during it.
    {
      reply: {
        text: 'Reading the notes file before I change anything. '.repeat(6),
        textChunkSize: 10,
        chunkDelayMs: 500,
        toolCalls: [{ name: 'read_file', arguments: { path: 'notes.txt' } }],
      },
    },
    {
      reply: { text: 'I saw that your tests ran after the save.', toolCalls: [{ name: 'propose_patch', arguments: { patch: AGENT_PATCH } }] },
      expect: { anyMessageContains: SAVED_NOTE },
    },
    // The agent's own save of agent.txt ran nothing on save: the model hears of the user's save once.
    { reply: { text: 'Done with the notes.' }, check: ({ body }) => (notes(body) === 1 ? undefined : `the run-on-save note came ${notes(body)} times`) },
  ],
  settings,
);

/** As a person: notes.txt's tab (or Quick Open the first time), a line typed at its end, Ctrl+S. */
async function typeAndSave(page: Page, line: string): Promise<void> {
  await focusWorkbench(page);
  const tab = page.getByRole('tab', { name: /^notes\.txt/ });
  if (await tab.count()) await tab.first().click();
  else {
    await page.keyboard.press('Control+P');
    await page.locator('.quick-input-widget input.input').fill('notes.txt');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'notes.txt' }).first().waitFor({ state: 'visible' });
    await page.keyboard.press('Enter');
  }
  const editor = page.locator('.monaco-editor:not(.monaco-diff-editor .monaco-editor) .view-lines', { hasText: 'first note' }).first();
  await editor.waitFor({ state: 'visible' });
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(`${line}\n`);
  await page.keyboard.press('Control+S');
}

e2eTest(
  'run on save: a test run after the user saves reaches the working chat run at its next step',
  async (vs) => {
    const chat = await sendInChat(vs, 'Look at the notes');
    await chat.getByText('Reading the notes file').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    // The user edits and saves a file while the model still streams.
    await typeAndSave(vs.page, 'second note');
    const deadline = Date.now() + E2E_TIMEOUT;
    while (!vs.readFile('notes.txt').includes('second note')) {
      if (Date.now() > deadline) assert.fail('the save did not reach the disk');
      await vs.page.waitForTimeout(200); // polling the disk
    }

    await vs.openViewContainer('PatchPilot');
    await chat
      .getByText('I saw that your tests ran after the save.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    // The chat shows that it ran, and that the model hears of it.
    await chat.getByText('Tests ran after you saved notes.txt: passed; the model hears of it at its next step.').first().waitFor({ state: 'visible' });
    await chat
      .getByText('Done with the notes.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(vs.readFile('agent.txt'), 'two\n', "the agent's patch is on disk");
    assert.deepEqual(scripted.server.mismatches, []);
    assert.match(JSON.stringify(scripted.server.chatRequests.at(1)?.body), /tests passed \(run on save of notes\.txt\)/);
    // Time for a run on save after the agent's own save (800 ms wait + the test): none comes.
    await vs.page.waitForTimeout(4_000);
    assert.equal(await chat.getByText(/^Tests ran after you saved/).count(), 1, "the agent's save ran no tests on save");
    await vs.screenshot('chat-run-on-save');

    // The user saves again; the tests pass as before: not news, and the chat says so.
    await typeAndSave(vs.page, 'third note');
    await vs.openViewContainer('PatchPilot');
    await chat
      .getByText('Tests ran after you saved notes.txt: passed; the model already knew this result, so it was not told again.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
  },
  { files: { 'notes.txt': 'first note\n', 'agent.txt': 'one\n', 'check.js': "console.log('1 passing');\n" }, settings },
);
