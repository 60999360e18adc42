// Undo from the chat in a real VS Code (code-server + Chromium), as a person does it: an auto-edit
// run writes a patch; its item in the chat says what was written, in words (never "would-apply");
// "Undo Patch to greet.js" puts the file back; the chat says so, the next turn of the agent is told,
// and the history's card of the patch says it was undone. Skipped with the reason when code-server
// is not installed and PATCHPILOT_E2E is not '1'.
import assert from 'node:assert/strict';
import { editorWebviewFrame } from './support/editorWebview';
import { GREETING_AFTER, GREETING_BEFORE, GREETING_GOAL, fixTheGreeting, useGreetingFix, waitForGreeting } from './support/greetingFix';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.approval.mode': 'auto-edit',
};

const scripted = useGreetingFix(settings, [
  { reply: { text: 'You undid my fix, so greet.js still says helo.' }, expect: { anyMessageContains: 'The user undid your patch to greet.js' } },
]);

e2eTest(
  'undo from the chat: the written patch says what went in, Undo Patch restores the file, the agent and the history learn of it',
  async (vs) => {
    const chat = await fixTheGreeting(vs);
    await waitForGreeting(vs, GREETING_AFTER);
    // Said in words: written, how much; never the engine's "would-apply" for a patch already on disk.
    await chat.getByText('Written to greet.js: the hunk').first().waitFor({ state: 'visible' });
    assert.equal(await chat.getByText(/would-apply/).count(), 0, 'no "would-apply" in the chat');

    await vs.openViewContainer('PatchPilot');
    await getByRoleIn(chat, 'button', 'Undo Patch to greet.js').click();
    await waitForGreeting(vs, GREETING_BEFORE);
    await chat
      .getByText(/undone by you/)
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByText('You undid the patch to greet.js; the model hears of it with your next message.').first().waitFor({ state: 'visible' });
    assert.equal(await getByRoleIn(chat, 'button', 'Undo Patch to greet.js').count(), 0, 'an undone patch offers no second undo');
    await vs.screenshot('chat-patch-undone');

    // The next turn of the agent is told.
    await getByRoleIn(chat, 'textbox', 'Message PatchPilot').fill('Is the greeting fixed?');
    await getByRoleIn(chat, 'button', 'Send').click();
    await chat
      .getByText('You undid my fix, so greet.js still says helo.')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(scripted.server.mismatches, []);

    // The history's card of the patch says it was undone, not just "applied".
    await vs.runCommand('PatchPilot: Show History');
    const panel = await editorWebviewFrame(vs.page, 'PatchPilot History');
    const runs = getByRoleIn(panel, 'listbox', 'Runs');
    await runs.getByRole('option', { name: new RegExp(`^${GREETING_GOAL}`) }).click();
    const detail = panel.getByRole('region', { name: 'Run details' });
    await detail.getByText(/1 of 1 hunks applied, then undone by you/).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await vs.screenshot('history-patch-undone');
  },
  { files: { 'greet.js': GREETING_BEFORE }, settings },
);
