// Escape stops a run when the chat has the focus (as in VS Code's own chat), in a real VS Code: the
// run's slow test command is stopped, the run ends as stopped, and Stop is disabled again. The
// screen reader's "waits for your answer" is covered by the approval tests; here the status says the
// run is stopping.
import assert from 'node:assert/strict';
import { sendInChat, useScriptedModel } from './support/chat';
import { e2eTest } from './support/session';
import { E2E_TIMEOUT, getByRoleIn } from './support/workbench';

const settings: Record<string, unknown> = {
  'patchpilot.llm.model': 'scripted-model',
  'patchpilot.tests.commands': ['node slow-check.js'],
};

useScriptedModel([{ reply: { text: 'Running the tests first.', toolCalls: [{ name: 'run_tests', arguments: {} }] } }], settings);

e2eTest(
  'Escape in the chat stops the run',
  async (vs) => {
    const chat = await sendInChat(vs, 'Check the lighthouse module');
    await chat.getByText('run_tests').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByRole('button', { name: 'Stop', disabled: false }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // The focus is in the message box (where Send left it); Escape there stops the run.
    await getByRoleIn(chat, 'textbox', 'Message PatchPilot').focus();
    await vs.page.keyboard.press('Escape');
    await chat.getByText('stopped', { exact: true }).first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    await chat.getByRole('button', { name: 'Stop', disabled: true }).waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    // The test row ends with the run: no "Running tests" left behind.
    await chat.getByText('Tests stopped with the run · node slow-check.js').first().waitFor({ state: 'visible', timeout: E2E_TIMEOUT });
    assert.equal(await chat.getByText(/^Running tests:/).count(), 0);
    await vs.screenshot('escape-stops-run');
  },
  { files: { 'lighthouse.js': 'module.exports = { beam: 1 };\n', 'slow-check.js': 'setTimeout(() => process.exit(0), 90_000);\n' }, settings },
);
