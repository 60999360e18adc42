// A command the model wants to run, in ask mode, answered from the chat as a person does: the card
// says why it asks (the mode, not the rule that would allow the command), the tool call waits for
// the answer, "Approve command: ..." runs it and the model gets the output; "Deny command: ..." runs
// nothing and the model reads that the user declined. Answered with the keyboard: the focus goes back
// to the message box when the card goes, and a screen reader hears each card and the run's end.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const settings: Record<string, unknown> = { 'patchpilot.llm.model': 'scripted-model', 'patchpilot.approval.mode': 'ask' };
const scripted = useScriptedModel(
  [
    { reply: { text: 'Listing the notes first.', toolCalls: [{ name: 'run_command', arguments: { command: 'cat notes.txt' } }] } },
    {
      reply: { text: 'Now cleaning up.', toolCalls: [{ name: 'run_command', arguments: { command: 'rm notes.txt' } }] },
      expect: { anyMessageContains: 'tidewater' },
    },
    { reply: { text: 'Understood, the notes stay.' }, expect: { anyMessageContains: 'the user declined: rm notes.txt' } },
  ],
  settings,
);

e2eTest(
  'command approval in the chat: the card says why it asks; Approve runs the command, Deny runs nothing',
  async (vs) => {
    const chat = await sendInChat(vs, 'Look at the notes, then tidy up');
    const approve = getByRoleIn(chat, 'button', 'Approve command: cat notes.txt');
    await approve.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat
      .getByText(/^ask mode asks before every command/)
      .first()
      .waitFor({ state: 'visible' });
    await chat.getByText('waiting for you', { exact: true }).first().waitFor({ state: 'visible' });
    await vs.screenshot('command-approval');
    const said = chat.getByRole('status');
    assert.match((await said.textContent()) ?? '', /waits for your answer: Command, cat notes\.txt/);
    await approve.focus();
    await vs.page.keyboard.press('Enter');

    const deny = getByRoleIn(chat, 'button', 'Deny command: rm notes.txt');
    await deny.waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.equal(await chat.locator(':focus').getAttribute('aria-label'), 'Message PatchPilot', 'the focus went back to the message box');
    await chat
      .getByRole('status')
      .getByText(/waits for your answer: Command, rm notes\.txt/)
      .waitFor({ timeout: E2E_TIMEOUT });
    await deny.focus();
    await vs.page.keyboard.press('Space');
    // Answered: the screen reader's live region no longer says that PatchPilot waits (issue 28, item 7).
    await chat
      .getByRole('status')
      .getByText(/waits for your answer/)
      .waitFor({ state: 'detached', timeout: E2E_TIMEOUT });
    await chat
      .getByText('Understood, the notes stay.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    await chat
      .getByRole('status')
      .getByText(/^Run finished/)
      .waitFor({ timeout: E2E_TIMEOUT });
    await chat.getByText('You declined the command.', { exact: true }).first().waitFor({ state: 'visible' });
    assert.equal(vs.readFile('notes.txt'), 'tidewater\n', 'the denied command did not run');
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'notes.txt': 'tidewater\n' }, settings },
);
