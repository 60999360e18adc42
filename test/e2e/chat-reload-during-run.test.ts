// A reload while a chat run works, in a real VS Code: the run is gone with the old extension host,
// so after the reload the chat ends it as interrupted (its tool call marked stopped, as the history
// marks the run), and a follow-up continues the conversation from what the history recorded.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  // A test command that outlives the reload: the run is in its run_tests call when the window goes.
  'patchpilot.tests.commands': ['node slow-check.js'],
};

const GOAL = 'Check the lighthouse module';

const scripted = useScriptedModel(
  [
    { reply: { text: 'Running the tests first.', toolCalls: [{ name: 'run_tests', arguments: {} }] } },
    // The follow-up after the reload: the killed run's goal is in the conversation.
    { reply: { text: 'The lighthouse check was interrupted; running it again would take a minute.' }, expect: { anyMessageContains: GOAL } },
  ],
  settings,
);

e2eTest(
  'a reload during a run ends it as interrupted in the chat, and a follow-up continues the conversation',
  async (vs) => {
    const chat = await sendInChat(vs, GOAL);
    await chat.getByText('Running the tests first.').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByText('run_tests').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByText('running', { exact: true }).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });

    // At once: the chat is on the extension host's disk as soon as a line is shown (streamed text
    // within 300 ms), whereas VS Code in a browser writes workspace state out with a delay.
    await vs.reload();
    await vs.openViewContainer('PatchPilot');
    const again = await vs.webviewFrame('PatchPilot');
    await again.getByText(GOAL).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // The run's end as the history has it, and no tool left spinning.
    await again.getByText('interrupted', { exact: true }).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await again.getByText('stopped', { exact: true }).first().waitFor({ state: 'visible' });
    assert.equal(await again.getByText('running', { exact: true }).count(), 0);
    await again.getByRole('button', { name: 'Stop', disabled: true }).waitFor({ state: 'visible' });
    await vs.screenshot('reload-during-run');

    await getByRoleIn(again, 'textbox', 'Message PatchPilot').fill('What happened?');
    await getByRoleIn(again, 'button', 'Send').click();
    await again
      .getByText('The lighthouse check was interrupted')
      .first()
      .waitFor({ state: 'visible', timeout: E2E_TIMEOUT * 2 });
    assert.deepEqual(scripted.server.mismatches, []);
  },
  { files: { 'lighthouse.js': 'module.exports = { beam: 1 };\n', 'slow-check.js': 'setTimeout(() => process.exit(0), 90_000);\n' }, settings },
);
