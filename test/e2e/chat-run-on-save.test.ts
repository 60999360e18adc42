// Run on save while a chat run works, in a real VS Code: the user saves a file, the test task runs,
// and its result reaches the working run's next model step as a message. Skipped with the reason
// when code-server is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, focusWorkbench } from './support/workbench';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.tests.commands': ['node check.js'],
  'patchpilot.tests.runOnSave': 'on',
};

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
    { reply: { text: 'I saw that your tests ran after the save.' }, expect: { anyMessageContains: 'The user saved files and the tests ran' } },
  ],
  settings,
);

e2eTest(
  'run on save: a test run after the user saves reaches the working chat run at its next step',
  async (vs) => {
    const chat = await sendInChat(vs, 'Look at the notes');
    await chat.getByText('Reading the notes file').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    // The user edits and saves a file while the model still streams.
    await focusWorkbench(vs.page);
    await vs.page.keyboard.press('Control+P');
    await vs.page.locator('.quick-input-widget input.input').fill('notes.txt');
    await vs.page.locator('.quick-input-list .monaco-list-row', { hasText: 'notes.txt' }).first().waitFor({ state: 'visible' });
    await vs.page.keyboard.press('Enter');
    await vs.page.locator('.monaco-editor .view-lines', { hasText: 'first note' }).first().waitFor({ state: 'visible' });
    await vs.page.locator('.monaco-editor .view-lines').first().click();
    await vs.page.keyboard.press('Control+End');
    await vs.page.keyboard.type('second note\n');
    await vs.page.keyboard.press('Control+S');
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
    await vs.screenshot('chat-run-on-save');
    assert.deepEqual(scripted.server.mismatches, []);
    assert.match(JSON.stringify(scripted.server.requests.at(-1)?.body), /tests passed \(run on save of notes\.txt\)/);
  },
  { files: { 'notes.txt': 'first note\n', 'check.js': "console.log('1 passing');\n" }, settings },
);
